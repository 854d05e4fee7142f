import { memo } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import UnfoldLessIcon from '@mui/icons-material/UnfoldLess';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useLocaleState, useTranslate } from 'react-admin';

export interface ListToolbarProps {
  canCreate: boolean;
  /** The tree has been loaded (until then no adding, and the count says it is loading). */
  loaded: boolean;
  total: number;
  exportUrl: string;
  onAdd: () => void;
  onImport: () => void;
  onExpandAll: () => void;
  onCollapseAll: () => void;
}

/** The tree's toolbar: add, import, export, open or close every item, the count (memoised: it does not change while the tree scrolls). */
export const ListToolbar = memo(function ListToolbar({ canCreate, loaded, total, exportUrl, onAdd, onImport, onExpandAll, onCollapseAll }: ListToolbarProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
      {canCreate && (
        <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={onAdd} disabled={!loaded}>
          {translate('ls.lists.add')}
        </Button>
      )}
      {canCreate && (
        <Button size="small" startIcon={<UploadFileIcon />} onClick={onImport} data-testid="list-import">
          {translate('ls.lists.import')}
        </Button>
      )}
      <Button size="small" startIcon={<DownloadIcon />} href={exportUrl} download>
        {translate('ls.lists.export')}
      </Button>
      <Button size="small" startIcon={<UnfoldMoreIcon />} onClick={onExpandAll}>
        {translate('ls.lists.expand_all')}
      </Button>
      <Button size="small" startIcon={<UnfoldLessIcon />} onClick={onCollapseAll}>
        {translate('ls.lists.collapse_all')}
      </Button>
      <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }} data-testid="list-count">
        {loaded ? translate('ls.lists.items', { count: total, smart_count: total, total: new Intl.NumberFormat(locale).format(total) }) : translate('ls.common.loading')}
      </Typography>
    </Stack>
  );
});
