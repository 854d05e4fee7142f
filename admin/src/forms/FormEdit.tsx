import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useParams, useTranslate } from 'react-admin';
import { formElements } from '../../../resources/formElements';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { FormDesigner } from '../formElements/FormDesigner';

/**
 * /console/{a}/forms/{id}: the generated form (title, data name) and below it the form designer: the elements in
 * order, each element's settings and the live preview. The designer edits with account_form_elements create, update
 * and delete; anyone else sees the elements and the preview.
 */
export default function FormEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  const elements = useResourceAccess(formElements.name);
  const canEdit = elements.canCreate && elements.canUpdate && elements.canDelete;
  return (
    <Box>
      <GeneratedEdit decl={decl} form={{ staticToolbar: true }} />
      {id && !elements.isPending && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="form-elements-title">
          <CardContent sx={{ p: { xs: 1, sm: 2 } }}>
            <Typography id="form-elements-title" variant="h6" component="h2" sx={{ mb: 1, px: { xs: 1, sm: 0 } }}>
              {translate('resources.form-elements.name', { smart_count: 2 })}
            </Typography>
            <FormDesigner accountId={accountId} formId={id} canEdit={canEdit} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
