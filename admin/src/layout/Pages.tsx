import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/LockOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { LinkBase, Title, useTranslate } from 'react-admin';

function Message({ testId, icon, title, text, action }: { testId: string; icon: ReactNode; title: string; text: string; action?: ReactNode }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }} data-testid={testId}>
      <Title title={translate(title)} />
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <Box sx={{ color: 'text.secondary', mb: 1, '& svg': { fontSize: 48 } }}>{icon}</Box>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate(title)}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {translate(text)}
        </Typography>
        {action}
      </CardContent>
    </Card>
  );
}

export function AccessDeniedPage() {
  const translate = useTranslate();
  return (
    <Message
      testId="access-denied"
      icon={<LockIcon />}
      title="ls.access_denied.title"
      text="ls.access_denied.text"
      action={
        <Button component={LinkBase} to="/" variant="contained">
          {translate('ls.common.back_to_start')}
        </Button>
      }
    />
  );
}

export function NotFoundPage() {
  const translate = useTranslate();
  return (
    <Message
      testId="not-found"
      icon={<SearchOffIcon />}
      title="ls.error_page.not_found_title"
      text="ls.error_page.not_found"
      action={
        <Button component={LinkBase} to="/" variant="contained">
          {translate('ls.common.back_to_start')}
        </Button>
      }
    />
  );
}
