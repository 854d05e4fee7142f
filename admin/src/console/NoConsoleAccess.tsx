import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/LockOutlined';
import { LinkBase, Title, useTranslate } from 'react-admin';

/** A console the caller may not enter (not a member, or no such account): the same answer for both. */
export function NoConsoleAccess() {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }} data-testid="console-no-access">
      <Title title={translate('ls.console.no_access_title')} />
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <LockIcon sx={{ fontSize: 48, color: 'text.secondary', mb: 1 }} />
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('ls.console.no_access_title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {translate('ls.console.no_access')}
        </Typography>
        <Button component={LinkBase} to="/accounts/selection" variant="contained">
          {translate('ls.switcher.all')}
        </Button>
      </CardContent>
    </Card>
  );
}
