import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useParams, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { GroupCarousels } from './GroupCarousels';
import { GroupCodes } from './GroupCodes';
import { GroupSchedules } from './GroupSchedules';

/**
 * /console/{a}/carousel-groups/{id}: title and standby carousel (generated form), the group's carousels in playing
 * order, and the codes that open it in the player (with their QR codes and "New code").
 */
export default function CarouselGroupEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  const { canRead: canReadCodes } = useResourceAccess('codes');
  const { canRead: canReadSchedules } = useResourceAccess('group-schedules');
  return (
    <Box>
      <GeneratedEdit decl={decl} form={{ staticToolbar: true }} />
      {id && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="group-carousels-title">
          <CardContent>
            <Typography id="group-carousels-title" variant="h6" component="h2" sx={{ mb: 1 }}>
              {translate('resources.carousels.name_other')}
            </Typography>
            <GroupCarousels accountId={accountId} groupId={id} />
          </CardContent>
        </Card>
      )}
      {id && canReadSchedules && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="group-schedules-title">
          <CardContent>
            <Typography id="group-schedules-title" variant="h6" component="h2" sx={{ mb: 1 }}>
              {translate('ls.schedules.title')}
            </Typography>
            <GroupSchedules accountId={accountId} groupId={id} />
          </CardContent>
        </Card>
      )}
      {id && canReadCodes && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="group-codes-title">
          <CardContent>
            <Typography id="group-codes-title" variant="h6" component="h2" sx={{ mb: 1 }}>
              {translate('resources.codes.name_other')}
            </Typography>
            <GroupCodes accountId={accountId} groupId={id} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
