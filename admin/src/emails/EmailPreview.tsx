import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useQuery } from '@tanstack/react-query';
import { Loading, Title, useAuthenticated, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router';
import { api, ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';
import Alert from '@mui/material/Alert';

/** Spec 2: the templates known to the preview. */
export const EMAIL_TEMPLATES = ['signup', 'resetpassword'] as const;

interface Preview {
  subject: string;
  html: string;
  text: string;
}

/**
 * /emails/{template}/{userid}: the e-mail as it would be sent to that user. The HTML renders in a sandboxed iframe
 * (no scripts, no same-origin access), so a template can never act inside the admin. Gated in AdminApp (entry_users read).
 */
export default function EmailPreview() {
  useAuthenticated();
  const translate = useTranslate();
  const { template = '', userid = '' } = useParams();
  const { data, error, isPending } = useQuery<Preview, ApiRequestError>({
    queryKey: ['emails.preview', template, userid],
    queryFn: ({ signal }) => api<Preview>(`/emails/preview/${encodeURIComponent(template)}/${encodeURIComponent(userid)}`, { signal }),
    retry: false,
  });
  const known = (EMAIL_TEMPLATES as readonly string[]).includes(template);
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('ls.emails.title')} />
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Tabs value={known ? template : false} aria-label={translate('ls.emails.title')}>
          {EMAIL_TEMPLATES.map((t) => (
            <Tab key={t} value={t} label={translate(`ls.emails.templates.${t}`)} component={Link} to={`/emails/${t}/${userid}`} />
          ))}
        </Tabs>
        <Button component={Link} to={`/users/${userid}`} startIcon={<ArrowBackIcon />}>
          {translate('ls.emails.back')}
        </Button>
      </Box>
      <Card>
        <CardContent>
          {isPending && !error ? (
            <Loading />
          ) : error ? (
            <Alert severity="error">{error instanceof ApiRequestError ? errorText(error.body) : translate('error_generic')}</Alert>
          ) : data ? (
            <>
              <Typography variant="body2" color="text.secondary">
                {translate('ls.emails.subject')}
              </Typography>
              <Typography variant="h6" component="h1" sx={{ mb: 2 }} data-testid="email-subject">
                {data.subject}
              </Typography>
              <Box
                component="iframe"
                title={translate('ls.emails.frame_title')}
                sandbox=""
                srcDoc={data.html}
                data-testid="email-frame"
                sx={{ width: '100%', height: { xs: 520, md: 640 }, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
              />
            </>
          ) : null}
        </CardContent>
      </Card>
    </Box>
  );
}
