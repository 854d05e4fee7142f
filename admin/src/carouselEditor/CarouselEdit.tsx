import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useParams, useTranslate } from 'react-admin';
import { layers } from '../../../resources/carousels';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { CarouselEditor } from './CarouselEditor';

/**
 * /console/{a}/carousels/{id}: the generated form (title, name; it stays on the page after saving) and below it the
 * carousel editor: variants, slides, the canvas with its layers, the inspector and the live preview. The editor edits
 * with account_carousels create, update and delete; anyone else looks.
 */
export default function CarouselEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  const access = useResourceAccess(layers.name);
  const canEdit = access.canCreate && access.canUpdate && access.canDelete;
  return (
    <Box>
      <GeneratedEdit decl={decl} stay form={{ staticToolbar: true }} />
      {id && !access.isPending && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="carousel-editor-title">
          <CardContent sx={{ p: { xs: 1, sm: 2 } }}>
            <Typography id="carousel-editor-title" variant="h6" component="h2" sx={{ mb: 1, px: { xs: 1, sm: 0 } }}>
              {translate('ls.carouselEditor.title')}
            </Typography>
            <CarouselEditor accountId={accountId} carouselId={id} canEdit={canEdit} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
