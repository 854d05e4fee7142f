import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useGetOne, useParams } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useConsoleAccount } from '../console/ConsoleContext';
import { FormStylePreview } from './FormStylePreview';

/**
 * /console/{a}/form-styles/{id}: the generated form and, below it, the public page drawn in this style (a sandboxed
 * frame whose custom CSS comes only as a stylesheet), reloaded each time the style is saved.
 */
export default function FormStyleEdit({ decl }: { decl: ResourceDeclaration }) {
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  // The stored record (react-admin refreshes it after a save): its update time is the preview's version.
  const { data } = useGetOne(decl.name, { id: id! }, { enabled: Boolean(id) });
  return (
    <Box>
      <GeneratedEdit decl={decl} form={{ staticToolbar: true }} />
      {id && (
        // Inline-size containment: the frame's fixed width never widens the page; the preview scales to the card instead.
        <Card sx={{ mt: 2, containerType: 'inline-size' }}>
          <CardContent>
            <FormStylePreview accountId={accountId} styleId={id} version={String(data?.st_updated_at ?? '')} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
