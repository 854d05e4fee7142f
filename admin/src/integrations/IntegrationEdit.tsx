import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useParams } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { IntegrationTestScan } from './IntegrationTestScan';

/**
 * /console/{a}/integrations/{id}: the generated form (https address, key, the secret write-only: set or not set,
 * replace, clear) and, with the update bit, a test scan against the saved settings.
 */
export default function IntegrationEdit({ decl }: { decl: ResourceDeclaration }) {
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess(decl.name);
  return (
    <Box>
      <GeneratedEdit decl={decl} form={{ staticToolbar: true }} />
      {id && canUpdate && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }}>
          <CardContent sx={{ maxWidth: 760, '& > [data-testid=integration-test-scan]': { mt: 0 } }}>
            <IntegrationTestScan accountId={accountId} integrationId={id} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
