import { useEffect } from 'react';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { usePublicI18n } from './i18n';
import { DelayedProgress } from '../layout/DelayedProgress';
import { logout } from '../providers/authProvider';
import { navigate } from '../navigation';

function LogoutContent() {
  const { t } = usePublicI18n();
  useEffect(() => {
    let alive = true;
    logout().then(() => alive && navigate('/login', { replace: true }));
    return () => {
      alive = false;
    };
  }, []);
  return (
    <div role="status">
      <Typography align="center">{t('ls.logout.busy')}</Typography>
      <DelayedProgress />
    </div>
  );
}

/** /logout: ends the session (GET /auth/logout) and lands on /login. */
export default function LogoutPage() {
  return (
    <PublicShell>
      <LogoutContent />
    </PublicShell>
  );
}
