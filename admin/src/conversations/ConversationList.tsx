import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedList } from '../generated/GeneratedList';
import type { CellProps } from '../generated/cells';
import { useConversationTexts } from './ConversationThread';

/** The subject, bold with an unread count while the caller has unread messages in the thread. */
function Subject({ record }: { record: Record<string, unknown> }) {
  const { t } = useConversationTexts();
  const unread = Number(record.cv_unread ?? 0);
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', fontWeight: unread ? 700 : 400, overflowWrap: 'anywhere' }}>
      {String(record.cv_subject ?? '') || '—'}
      {unread > 0 && <Chip size="small" color="primary" label={t('unread', { n: unread })} data-testid="conversation-unread" />}
    </Box>
  );
}

const SubjectCell = ({ record }: CellProps) => <Subject record={record} />;
const CELLS = { cv_subject: SubjectCell };

/** /console/{a}/conversations: the generated list, unread threads first (the API's default order) with their count. */
export default function ConversationList({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedList decl={decl} cells={CELLS} primaryText={Subject} phoneColumns={['cv_leadid', 'cv_last_message_at']} />;
}
