// The list tree editor alone on a page, for bench/list-tree.ts: signs in with the address's e-mail and password,
// then mounts <ListTreeEditor> for ?account=&list= in the admin's i18n and a plain MUI theme.
import { createRoot } from 'react-dom/client';
import { AdminContext, testDataProvider } from 'react-admin';
import CssBaseline from '@mui/material/CssBaseline';
import Box from '@mui/material/Box';
import { ListTreeEditor } from '../../admin/src/lists/ListTreeEditor';
import { addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { api } from '../../admin/src/providers/http';
import { loadSession } from '../../admin/src/providers/session';

declare global {
  interface Window {
    benchReady?: boolean;
  }
}

async function main() {
  const q = new URLSearchParams(location.search);
  await api('/auth/me').catch(() => undefined);
  await api('/auth/web', { method: 'POST', body: { u_email: q.get('email'), u_password: q.get('password') } });
  await loadSession(true);
  const i18nProvider = await i18nReady();
  await addReactAdminTexts();
  createRoot(document.getElementById('root')!).render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <CssBaseline />
      <Box sx={{ p: 2 }}>
        <ListTreeEditor accountId={q.get('account')!} listId={q.get('list')!} />
      </Box>
    </AdminContext>,
  );
  window.benchReady = true;
}
main().catch((e) => {
  document.body.textContent = String((e as Error)?.stack ?? e);
});
