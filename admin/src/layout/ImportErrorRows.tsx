import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';

/** One refused row of an import: what went wrong (title) and which row (description). */
export interface ImportErrorRow {
  key: string;
  title: ReactNode;
  description: ReactNode;
}

/** Every refused row of an all-or-nothing import (users, list items), under a count of them. */
export function ImportErrorRows({ summary, rows, testId }: { summary: ReactNode; rows: ImportErrorRow[]; testId: string }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1.5 }} role="status">
        {summary}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }} aria-label={translate('user_import_failed_title')}>
        {rows.map((r) => (
          <li key={r.key}>
            <Alert severity="error" data-testid={testId}>
              <AlertTitle>{r.title}</AlertTitle>
              {r.description}
            </Alert>
          </li>
        ))}
      </Box>
    </Box>
  );
}
