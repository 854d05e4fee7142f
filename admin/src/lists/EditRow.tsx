import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import InputBase from '@mui/material/InputBase';
import Typography from '@mui/material/Typography';
import { INDENT, ROW_HEIGHT } from './treeRows';

/**
 * The row's title field, holding its own text (typing renders only this row): Enter saves, Escape cancels, leaving
 * the field saves what was typed. After a new item is saved the field empties for the next one.
 */
export function EditRow({
  top,
  depth,
  initial,
  error,
  busy,
  label,
  placeholder,
  onEdit,
  onSave,
  onCancel,
}: {
  top: number;
  depth: number;
  initial: string;
  error?: string;
  busy?: boolean;
  label: string;
  placeholder?: string;
  onEdit: () => void;
  onSave: (draft: string) => Promise<'cleared' | undefined>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  // Escape pressed, a save under way, or the row leaving: a blur then saves nothing.
  const done = useRef(false);
  const saving = useRef(false);
  useEffect(
    () => () => {
      done.current = true;
    },
    [],
  );
  const save = async () => {
    if (saving.current || done.current) return;
    saving.current = true;
    try {
      if ((await onSave(draft)) === 'cleared') setDraft('');
    } finally {
      saving.current = false;
    }
  };
  return (
    <Box
      role="treeitem"
      aria-level={depth}
      aria-selected
      style={{ top, paddingLeft: (depth - 1) * INDENT + 38 }}
      sx={{ position: 'absolute', left: 0, right: 0, height: ROW_HEIGHT, display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}
    >
      <InputBase
        autoFocus
        value={draft}
        placeholder={placeholder}
        readOnly={busy}
        onChange={(e) => {
          setDraft(e.target.value);
          if (error) onEdit();
        }}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            done.current = true;
            onCancel();
          }
        }}
        onBlur={() => void save()}
        inputProps={{ 'aria-label': label, 'aria-invalid': error ? true : undefined, 'data-testid': 'list-tree-input', maxLength: 500 }}
        sx={{ flex: '1 1 auto', px: 1, border: 1, borderColor: error ? 'error.main' : 'primary.main', borderRadius: 1, fontSize: 'body1.fontSize' }}
      />
      {error && (
        <Typography variant="caption" color="error" role="alert" noWrap sx={{ flex: '0 1 auto', maxWidth: '50%' }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}
