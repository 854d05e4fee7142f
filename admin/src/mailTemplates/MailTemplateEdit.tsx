import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { MailTemplateFormTools } from './MailTemplateFormTools';

/**
 * /console/{a}/mail-templates/{id}: the generated form with the template's variables, the live preview of the unsaved
 * text (sample data) and, with the update bit, a test mail of the saved template to the caller's own address.
 */
export default function MailTemplateEdit({ decl }: { decl: ResourceDeclaration }) {
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess(decl.name);
  return (
    <GeneratedEdit decl={decl} form={(record) => ({ maxWidth: 1400, aside: <MailTemplateFormTools accountId={accountId} templateId={String(record.id)} canEdit={canUpdate} /> })} />
  );
}
