import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Title, useGetOne, useParams, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { eventForms } from '../../../resources/eventForms';
import { eventIntegrations } from '../../../resources/eventIntegrations';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { titleOf } from '../generated/rules';
import { useConsoleAccount } from '../console/ConsoleContext';
import { EventForms } from '../eventForms/EventForms';
import { EventIntegrations } from '../eventIntegrations/EventIntegrations';
import { MeetingDayGrid } from '../meetings/MeetingDayGrid';

type TabName = 'details' | 'forms' | 'integrations' | 'meetings';

/**
 * /console/{a}/events/{id}: the event in tabs: its generated form (access type, dates, owner from the members,
 * registration form, access code when restricted), its forms in order, its integrations and its meetings as a day grid. The tab is in the
 * address (?tab=forms), so reload and back keep it; each child tab shows with its group's read bit.
 */
export default function EventEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  const [params, setParams] = useSearchParams();
  const formsAccess = useResourceAccess(eventForms.name);
  const integrationsAccess = useResourceAccess(eventIntegrations.name);
  const meetingsAccess = useResourceAccess('meetings');
  const { data: event } = useGetOne(decl.name, { id: id! }, { enabled: !!id });
  const available: TabName[] = [
    'details',
    ...(formsAccess.canRead ? (['forms'] as const) : []),
    ...(integrationsAccess.canRead ? (['integrations'] as const) : []),
    ...(meetingsAccess.canRead ? (['meetings'] as const) : []),
  ];
  const asked = params.get('tab') as TabName | null;
  const tab: TabName = asked && available.includes(asked) ? asked : 'details';
  const select = (next: TabName) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        if (next === 'details') out.delete('tab');
        else out.set('tab', next);
        return out;
      },
      { replace: true },
    );
  const label = (name: TabName) => translate(`ls.console.events.tabs.${name}`);
  return (
    // One column that may shrink below its content (minmax(0, 1fr)): in react-admin's flex layout the scrollable tabs
    // would otherwise widen the page on a phone instead of scrolling.
    <Box sx={{ mt: { xs: 1, sm: 2 }, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Tabs
        value={tab}
        onChange={(_, v: TabName) => select(v)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={translate('ls.console.events.tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: tab === 'details' ? 0 : 2 }}
      >
        {available.map((name) => (
          <Tab key={name} value={name} label={label(name)} id={`event-tab-${name}`} aria-controls={`event-tabpanel-${name}`} data-testid={`event-tab-${name}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`event-tabpanel-${tab}`} aria-labelledby={`event-tab-${tab}`}>
        {tab === 'details' ? (
          <GeneratedEdit decl={decl} />
        ) : (
          <Card sx={{ containerType: 'inline-size' }}>
            {event && <Title title={titleOf(decl, event)} />}
            <CardContent>
              {tab === 'forms' ? (
                <EventForms accountId={accountId} eventId={id!} />
              ) : tab === 'meetings' ? (
                <MeetingDayGrid accountId={accountId} eventId={id!} />
              ) : (
                <EventIntegrations accountId={accountId} eventId={id!} />
              )}
            </CardContent>
          </Card>
        )}
      </Box>
    </Box>
  );
}
