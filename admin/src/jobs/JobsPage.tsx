import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Loading, Title, useAuthenticated, useTranslate } from 'react-admin';
import { api, ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';

export interface JobCounts {
  waiting: number;
  failed: number;
  byName: Record<string, { waiting: number; failed: number }>;
}

/** How often the page asks again (the counts move while it is open). */
const REFRESH_MS = 10_000;

/**
 * /jobs (root users; AdminApp and the entry menu gate it): the job queue's waiting and failed jobs, in all and by job
 * name, from GET /api/1/jobs (the same figures as /metrics' jobs_waiting and jobs_failed), refreshed every 10 s.
 */
export default function JobsPage() {
  useAuthenticated();
  const translate = useTranslate();
  const { data, error, isPending } = useQuery<JobCounts, ApiRequestError>({
    queryKey: ['ls.jobs'],
    queryFn: ({ signal }) => api<JobCounts>('/jobs', { signal }),
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('ls.jobs.title')} />
      <Card>
        <CardContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('ls.jobs.intro')}
          </Typography>
          {isPending && !error ? (
            <Loading />
          ) : error ? (
            <Alert severity="error">{errorText(error.body)}</Alert>
          ) : data ? (
            <>
              <Box sx={{ display: 'flex', gap: 4, mb: 2, flexWrap: 'wrap' }}>
                <Figure label={translate('ls.jobs.waiting')} value={data.waiting} testId="jobs-waiting" />
                <Figure label={translate('ls.jobs.failed')} value={data.failed} testId="jobs-failed" alert={data.failed > 0} />
              </Box>
              <Table size="small" aria-label={translate('ls.jobs.title')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('ls.jobs.name')}</TableCell>
                    <TableCell align="right">{translate('ls.jobs.waiting')}</TableCell>
                    <TableCell align="right">{translate('ls.jobs.failed')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {Object.entries(data.byName).map(([name, c]) => (
                    <TableRow key={name}>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{name}</TableCell>
                      <TableCell align="right">{c.waiting}</TableCell>
                      <TableCell align="right" sx={c.failed ? { color: 'error.main', fontWeight: 600 } : undefined}>
                        {c.failed}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          ) : null}
        </CardContent>
      </Card>
    </Box>
  );
}

function Figure({ label, value, testId, alert }: { label: string; value: number; testId: string; alert?: boolean }) {
  return (
    <Box>
      <Typography variant="h4" component="p" data-testid={testId} color={alert ? 'error' : undefined}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}
