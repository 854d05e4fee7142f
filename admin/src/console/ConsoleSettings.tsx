import { ResourceContextProvider, useTranslate } from 'react-admin';
import { settings } from '../../../resources/settings';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { consolePath } from './access';
import { useConsoleAccount } from './ConsoleContext';

/** /console/{a}/settings: the account's one local-settings record, as a generated edit form (secrets write-only). */
export default function ConsoleSettings() {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  return (
    <ResourceContextProvider value={settings.name}>
      <GeneratedEdit decl={settings} id={accountId} backTo={consolePath(accountId)} title={translate('ls.console.settings_title')} />
    </ResourceContextProvider>
  );
}
