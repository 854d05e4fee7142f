import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { FormRenderer } from '../renderer';
import { leadFormGroups, useEventGraph, useRendererSettings } from './leadData';
import { LeadPhotos } from './LeadPhotos';
import { HandoffHistory } from '../handoffs/HandoffHistory';

type Row = Record<string, unknown>;

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <Box component="section" sx={{ mb: 3, minWidth: 0 }} data-testid={testId}>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A lead's answers as the person gave them, drawn read-only by the shared renderer from the event's forms. */
export function LeadAnswers({ accountId, lead }: { accountId: string; lead: Row }) {
  const translate = useTranslate();
  const graph = useEventGraph(accountId, lead.ld_eventid);
  const settings = useRendererSettings();
  const answers = (lead.ld_answers && typeof lead.ld_answers === 'object' ? lead.ld_answers : {}) as Record<string, unknown>;
  const groups = leadFormGroups(graph.data, lead.ld_source);
  if (graph.isPending) return <Skeleton variant="rounded" height={120} />;
  if (graph.isError) return <Alert severity="warning">{translate('ls.console.leads.forms_unavailable')}</Alert>;
  if (!groups.length) return <Typography color="text.secondary">{translate('ls.console.leads.no_forms')}</Typography>;
  // One form: its answers as they are; several: each under its title, as the booth filled them.
  if (groups.length === 1) return <FormRenderer elements={groups[0].elements} values={answers} readOnly idPrefix="lead-answers" {...settings} />;
  return (
    <>
      {groups.map((g) => (
        <Box key={g.id} sx={{ mb: 2 }} data-testid="lead-answers-form">
          <Typography variant="body2" component="h3" color="text.secondary" sx={{ fontWeight: 600, mb: 0.5 }}>
            {g.title}
          </Typography>
          <FormRenderer elements={g.elements} values={answers} readOnly idPrefix="lead-answers" {...settings} />
        </Box>
      ))}
    </>
  );
}

/**
 * What a lead page shows beside its fields: the card photos, the voice memo (played here), the answers, the consent text exactly as the person saw
 * it when opting in, and the lead's handoffs.
 */
export function LeadDetails({ accountId, lead }: { accountId: string; lead: Row }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minWidth: 0 }}>
      {lead.ld_front_fileid || lead.ld_back_fileid ? (
        <Section title={translate('ls.console.leads.photos')}>
          <LeadPhotos accountId={accountId} front={lead.ld_front_fileid} back={lead.ld_back_fileid} />
        </Section>
      ) : null}
      {typeof lead.ld_memo_url === 'string' && lead.ld_memo_url ? (
        <Section title={translate('ls.console.leads.memo')} testId="lead-memo">
          {/* The memo as recorded at the booth (private to the account, served with byte ranges for seeking). */}
          <Box component="audio" controls preload="metadata" src={lead.ld_memo_url} sx={{ width: '100%', maxWidth: 480, display: 'block' }} data-testid="lead-memo-audio">
            {translate('ls.console.leads.memo_unsupported')}
          </Box>
        </Section>
      ) : null}
      <Section title={translate('ls.console.leads.answers')} testId="lead-answers">
        <LeadAnswers accountId={accountId} lead={lead} />
      </Section>
      <Section title={translate('ls.console.leads.consent')} testId="lead-consent">
        {lead.ld_consent_news ? (
          <Box component="blockquote" sx={{ m: 0, pl: 2, borderLeft: 3, borderColor: 'divider', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {typeof lead.ld_consent_text === 'string' && lead.ld_consent_text ? lead.ld_consent_text : translate('ls.console.leads.consent_text_missing')}
          </Box>
        ) : (
          <Typography color="text.secondary">{translate('ls.console.leads.consent_none')}</Typography>
        )}
      </Section>
      <HandoffHistory accountId={accountId} leadId={String(lead.id)} />
    </Box>
  );
}
