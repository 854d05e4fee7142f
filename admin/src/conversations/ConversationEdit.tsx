import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useConsoleAccount } from '../console/ConsoleContext';
import { ConversationThread } from './ConversationThread';

/** /console/{a}/conversations/{id}: subject and status, and the thread with a reply box beside them (live). */
export default function ConversationEdit({ decl }: { decl: ResourceDeclaration }) {
  const { accountId } = useConsoleAccount();
  return <GeneratedEdit decl={decl} form={(record) => ({ maxWidth: 1280, aside: <ConversationThread accountId={accountId} conversationId={String(record.id)} /> })} />;
}
