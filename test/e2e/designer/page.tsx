import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import CssBaseline from '@mui/material/CssBaseline';
import { deepmerge } from '@mui/utils';
import { AdminContext, defaultDarkTheme, defaultLightTheme } from 'react-admin';
import { FormDesigner } from '../../../admin/src/formElements/FormDesigner';
import { addConsoleTexts, i18nReady } from '../../../admin/src/i18n';
import { darkThemeOptions, lightThemeOptions } from '../../../admin/src/theme';
import { ACCOUNT, FORM, installFakeApi } from './fakeApi';

/**
 * The form designer on a page of its own, the way the console's form page mounts it.
 * Real API (through the dev server's proxy, signed in beforehand): ?account=<id>&form=<id>.
 * Fake API in the page: ?fake=1[&elements=200&items=5000]. Also ?readonly=1, ?lang=nl, ?theme=dark.
 */
const params = new URLSearchParams(location.search);
const lang = params.get('lang');
if (lang === 'en' || lang === 'nl') localStorage.setItem('RaStore.locale', JSON.stringify(lang));
const fake = params.has('fake');
if (fake) installFakeApi({ count: Number(params.get('elements') ?? 200), bigItems: Number(params.get('items') ?? 5000) });

const lightTheme = deepmerge(defaultLightTheme, lightThemeOptions);
const darkTheme = deepmerge(defaultDarkTheme, darkThemeOptions);
const dark = params.get('theme') === 'dark';

i18nReady().then(async (i18nProvider) => {
  await addConsoleTexts();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AdminContext i18nProvider={i18nProvider} theme={dark ? darkTheme : lightTheme} darkTheme={null}>
        <CssBaseline />
        <FormDesigner accountId={fake ? ACCOUNT : params.get('account')!} formId={fake ? FORM : params.get('form')!} canEdit={!params.has('readonly')} />
      </AdminContext>
    </StrictMode>,
  );
});
