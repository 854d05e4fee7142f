import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import PermMediaIcon from '@mui/icons-material/PermMediaOutlined';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import type { MediaFolder } from './mediaApi';

/** Where a folder is shown: /media?folder=<id> (the root level is /media). */
export const folderHref = (id: string | null) => (id ? `/media?folder=${encodeURIComponent(id)}` : '/media');

/** Spec 4: the root, then the chain from GET /storage/folders/:id/parents, separated by ">"; the last is the current folder. */
export function MediaBreadcrumb({ chain }: { chain: MediaFolder[] }) {
  const translate = useTranslate();
  const crumbs = [{ id: null as string | null, title: translate('ls.media.root') }, ...chain.map((f) => ({ id: f.fo_id, title: f.fo_title }))];
  return (
    <Breadcrumbs
      separator=">"
      aria-label={translate('ls.media.breadcrumb')}
      data-testid="media-breadcrumb"
      sx={{ '& .MuiBreadcrumbs-ol': { rowGap: 0.5 }, '& .MuiBreadcrumbs-li': { minWidth: 0, maxWidth: '100%' }, '& .MuiBreadcrumbs-separator': { mx: 0.75 } }}
    >
      {crumbs.map((c, i) => {
        const last = i === crumbs.length - 1;
        const content = (
          <>
            {i === 0 && <PermMediaIcon sx={{ fontSize: 18, mr: 0.5, verticalAlign: 'text-bottom' }} />}
            {c.title}
          </>
        );
        return last ? (
          <Typography key={c.id ?? 'root'} color="text.primary" aria-current="page" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="crumb">
            {content}
          </Typography>
        ) : (
          <Link key={c.id ?? 'root'} component={RouterLink} to={folderHref(c.id)} underline="hover" color="inherit" sx={{ overflowWrap: 'anywhere' }} data-testid="crumb">
            {content}
          </Link>
        );
      })}
    </Breadcrumbs>
  );
}
