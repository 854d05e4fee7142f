import Button from '@mui/material/Button';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { LinkBase, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { consolePath } from '../console/access';
import { LeadDetails } from './LeadDetails';
import { LeadPageTitle } from './leadCells';
import { HandoffButton } from '../handoffs/HandoffDialog';
import { LeadConversations } from '../conversations/ConversationThread';

/** What the person gave or the device recorded: shown, not edited here (answers change in the transcription queue). */
const SHOWN = ['ld_email', 'ld_first_name', 'ld_last_name', 'ld_transcription_status', 'ld_consent_news'];
const OVERRIDES = Object.fromEntries(SHOWN.map((f) => [f, { meta: { readOnly: true } }]));

export const needsTranscription = (lead: Record<string, unknown>) => lead.ld_transcription_status === 'pending' || lead.ld_transcription_status === 'postponed';

/**
 * /console/{a}/leads/{id}: the lead's fields (validity and owner editable), its card photos (zoomable), its answers
 * drawn read-only by the shared renderer, the consent text as the person saw it, and its handoffs (hand off from the
 * toolbar); a card still to type goes to the transcription queue at this lead.
 */
export default function LeadEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess('leads');
  return (
    <GeneratedEdit
      decl={decl}
      title={<LeadPageTitle />}
      form={(lead) => ({
        maxWidth: 1280,
        overrides: OVERRIDES,
        aside: (
          <>
            <LeadDetails accountId={accountId} lead={lead} />
            <LeadConversations accountId={accountId} leadId={String(lead.id)} />
          </>
        ),
        toolbarExtra: (
          <>
            <HandoffButton accountId={accountId} leadId={String(lead.id)} />
            {canUpdate && needsTranscription(lead) ? (
              <Button component={LinkBase} to={`${consolePath(accountId, 'transcription')}?lead=${encodeURIComponent(String(lead.id))}`} startIcon={<PlaylistAddCheckIcon />}>
                {translate('ls.console.leads.transcribe_this')}
              </Button>
            ) : null}
          </>
        ),
      })}
    />
  );
}
