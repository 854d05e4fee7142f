import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useGetOne, useParams, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { CopyButton } from '../layout/CopyButton';
import { useConsoleAccount } from '../console/ConsoleContext';
import { CollectionAssets } from './CollectionAssets';

/** The public page of a collection: /c/{co_token} on this site. */
export const collectionUrl = (token: string, origin = window.location.origin) => `${origin}/c/${encodeURIComponent(token)}`;

/** The collection's public link (anyone with it sees the assets), to copy or open. */
function PublicLink({ token }: { token: string }) {
  const translate = useTranslate();
  const url = collectionUrl(token);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="collection-link">
      <Box component="code" sx={{ fontSize: 14, px: 1, py: 0.5, bgcolor: 'action.hover', borderRadius: 1, wordBreak: 'break-all' }} data-testid="collection-url">
        {url}
      </Box>
      <CopyButton value={url} label={translate('ls.collections.public_link')} />
      <Button size="small" href={url} target="_blank" rel="noopener noreferrer" startIcon={<OpenInNewIcon fontSize="small" />}>
        {translate('ls.collections.open_public')}
      </Button>
    </Box>
  );
}

/**
 * /console/{a}/collections/{id}: title and name (generated form), the public link /c/{co_token} with a copy button,
 * and the collection's assets in order (add, reorder, remove).
 */
export default function CollectionEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  const { data } = useGetOne(decl.name, { id: id! }, { enabled: !!id });
  return (
    <Box>
      <GeneratedEdit decl={decl} form={{ staticToolbar: true }} />
      {id && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="collection-link-title">
          <CardContent>
            <Typography id="collection-link-title" variant="h6" component="h2" sx={{ mb: 0.5 }}>
              {translate('ls.collections.public_link')}
            </Typography>
            <Typography color="text.secondary" variant="body2" sx={{ mb: 1.5 }}>
              {translate('ls.collections.public_help')}
            </Typography>
            {data?.co_token ? <PublicLink token={String(data.co_token)} /> : null}
          </CardContent>
        </Card>
      )}
      {id && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="collection-assets-title">
          <CardContent>
            <Typography id="collection-assets-title" variant="h6" component="h2" sx={{ mb: 1 }}>
              {translate('ls.collections.assets')}
            </Typography>
            <CollectionAssets accountId={accountId} collectionId={id} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
