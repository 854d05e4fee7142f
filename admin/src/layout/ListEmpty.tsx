import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';

/** An empty list: a short line and, with create permission, the add button (react-admin's default links to /create). */
export function ListEmpty({ text, action }: { text: string; action?: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, width: '100%' }} data-testid="list-empty">
      <Typography color="text.secondary" sx={{ mb: action ? 2 : 0 }}>
        {translate(text)}
      </Typography>
      {action}
    </Box>
  );
}
