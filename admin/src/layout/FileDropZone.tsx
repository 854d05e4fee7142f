import { useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';

export interface FileDropZoneProps {
  /** For <input accept>. */
  accept: string;
  /** While busy, a drop is refused and the button disabled. */
  busy: boolean;
  onFiles: (files: FileList | null) => void;
  /** "Drop files here", "Choose files" and the line under the zone (allowed types). */
  dropText: ReactNode;
  chooseText: ReactNode;
  hint: ReactNode;
  /** data-testid of the zone, the button and the hidden input. */
  testIds: { zone: string; choose: string; input: string };
}

/**
 * Where files are dropped or chosen (the media library's and the assets' uploaders): a dashed zone that lights up while
 * something is dragged over it, a button for the file dialog (phones have nothing to drag from: the button alone), and
 * the hint below. The same file chosen twice in a row is still reported (the input is cleared after each choice).
 */
export function FileDropZone({ accept, busy, onFiles, dropText, chooseText, hint, testIds }: FileDropZoneProps) {
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Box
        data-testid={testIds.zone}
        onDragOver={(e) => {
          e.preventDefault();
          if (e.dataTransfer) e.dataTransfer.dropEffect = busy ? 'none' : 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (!busy) onFiles(e.dataTransfer?.files ?? null);
        }}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'transparent',
          borderRadius: 2,
          p: { xs: 1.5, sm: 3 },
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: 'center',
          justifyContent: 'center',
          gap: { xs: 1, sm: 2 },
          textAlign: 'center',
          transition: 'border-color 120ms, background-color 120ms',
        }}
      >
        <CloudUploadIcon sx={{ fontSize: 36, color: dragging ? 'primary.main' : 'text.secondary', display: { xs: 'none', sm: 'block' } }} />
        <Typography color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
          {dropText}
        </Typography>
        <Button variant="outlined" onClick={() => input.current?.click()} disabled={busy} data-testid={testIds.choose}>
          {chooseText}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={accept}
          hidden
          data-testid={testIds.input}
          onChange={(e) => {
            onFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.75 }}>
        {hint}
      </Typography>
    </>
  );
}
