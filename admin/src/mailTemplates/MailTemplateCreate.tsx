import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';
import { useConsoleAccount } from '../console/ConsoleContext';
import { MailTemplateFormTools } from './MailTemplateFormTools';

/** /console/{a}/mail-templates/new: the generated form with the variables, the built-in start and the live preview. */
export default function MailTemplateCreate({ decl }: { decl: ResourceDeclaration }) {
  const { accountId } = useConsoleAccount();
  return <GeneratedCreate decl={decl} form={{ maxWidth: 1400, aside: <MailTemplateFormTools accountId={accountId} canEdit /> }} />;
}
