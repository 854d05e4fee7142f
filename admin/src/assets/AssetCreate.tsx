import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { LinkBase, Title, useCreatePath, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { useResourceAccess } from '../generated/access';
import { AccessDeniedPage } from '../layout/Pages';
import { DelayedProgress } from '../layout/DelayedProgress';
import { useConsoleAccount } from '../console/ConsoleContext';
import { AssetUploader } from './AssetUploader';

/**
 * /console/{a}/assets/new: upload one or more files as new assets (the create bit). Each new asset refreshes the
 * cached lists, so the list shows it on the way back.
 */
export default function AssetCreate({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const { canCreate, isPending } = useResourceAccess(decl.name);
  const queryClient = useQueryClient();
  const listPath = useCreatePath()({ type: 'list', resource: decl.name });
  if (isPending) return <DelayedProgress />;
  if (!canCreate) return <AccessDeniedPage />;
  return (
    <Box sx={{ mt: { xs: 1, sm: 2 }, maxWidth: 1100 }}>
      <Title title={translate('ls.assets.upload.title')} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Button component={LinkBase} to={listPath} startIcon={<ArrowBackIcon />} data-testid="assets-back">
          {translate('ls.assets.upload.back')}
        </Button>
        <Typography color="text.secondary" variant="body2">
          {translate('ls.assets.upload.help')}
        </Typography>
      </Box>
      <AssetUploader accountId={accountId} onUploaded={() => void queryClient.invalidateQueries({ queryKey: [decl.name] })} />
    </Box>
  );
}
