import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { LinkBase, Title, useLocaleState, useTranslate } from 'react-admin';
import { api } from '../providers/http';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { events } from '../../../resources/events';
import { invites } from '../../../resources/invites';
import { members } from '../../../resources/members';
import { consolePath } from './access';
import { useConsoleAccount } from './ConsoleContext';
import { useAccountName } from './useAccountName';
import { iconOf } from './icons';

/** GET /accounts/{a}/summary. */
export interface AccountSummary {
  active_events: number;
  members: number;
  pending_invites: number;
}

function Figure({ label, hint, value, icon, to, testId }: { label: string; hint: string; value: number | undefined; icon: ReactNode; to?: string; testId: string }) {
  const [locale] = useLocaleState();
  const body = (
    <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
      <Box sx={{ color: 'primary.main', display: 'flex', '& svg': { fontSize: 36 } }} aria-hidden>
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h4" component="p" sx={{ fontWeight: 700, lineHeight: 1.1 }} data-testid={testId}>
          {value === undefined ? <Skeleton width={48} /> : value.toLocaleString(locale)}
        </Typography>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      </Box>
    </CardContent>
  );
  return (
    <Card variant="outlined">
      {to ? (
        <CardActionArea component={LinkBase} to={to}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/**
 * /console/{a}: the account at a glance: its active events, members and pending invites; each figure opens its list
 * when the caller may read it.
 */
export default function ConsoleHome() {
  const translate = useTranslate();
  const { accountId, role } = useConsoleAccount();
  const { session } = useSession();
  const name = useAccountName(accountId);
  const { data } = useQuery({ queryKey: ['console', accountId, 'summary'], queryFn: () => api<AccountSummary>(`/accounts/${accountId}/summary`) });
  const readable = (group: string) => canInAccount(session, accountId, group, 'read');
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={name ?? translate('ls.console.title')} />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }} data-testid="console-account-name">
        {name ?? <Skeleton width={200} />}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {translate('ls.console.home.subtitle')} · {translate('ls.console.home.role', { role: translate(`ls.roles.${role}`) })}
      </Typography>
      <Typography variant="overline" component="h2" color="text.secondary">
        {translate('ls.console.home.figures')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }, maxWidth: 1100 }}>
        <Figure
          testId="figure-active-events"
          label={translate('ls.console.home.active_events')}
          hint={translate('ls.console.home.active_events_hint')}
          value={data?.active_events}
          icon={iconOf(events.icon)}
          to={readable(events.group) ? consolePath(accountId, 'events') : undefined}
        />
        <Figure
          testId="figure-members"
          label={translate('ls.console.home.members')}
          hint={translate('ls.console.home.members_hint')}
          value={data?.members}
          icon={iconOf(members.icon)}
          to={readable(members.group) ? consolePath(accountId, 'members') : undefined}
        />
        <Figure
          testId="figure-pending-invites"
          label={translate('ls.console.home.pending_invites')}
          hint={translate('ls.console.home.pending_invites_hint')}
          value={data?.pending_invites}
          icon={iconOf(invites.icon)}
          to={readable(invites.group) ? `${consolePath(accountId, 'invites')}?filter=${encodeURIComponent(JSON.stringify({ iv_status: 'pending' }))}` : undefined}
        />
      </Box>
    </Box>
  );
}
