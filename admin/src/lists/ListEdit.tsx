import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useParams, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useConsoleAccount } from '../console/ConsoleContext';
import { ListTreeEditor } from './ListTreeEditor';

/**
 * /console/{a}/lists/{id}: the generated form (title, name) and below it the list's items as a tree: add, rename,
 * drag, delete a subtree, import CSV or indented text, export CSV (buttons by the caller's account_lists bits).
 */
export default function ListEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { id } = useParams();
  const { accountId } = useConsoleAccount();
  return (
    <Box>
      <GeneratedEdit decl={decl} form={{ staticToolbar: true }} />
      {id && (
        <Card sx={{ mt: 2, containerType: 'inline-size' }} component="section" aria-labelledby="list-items-title">
          <CardContent sx={{ p: { xs: 1, sm: 2 } }}>
            <Typography id="list-items-title" variant="h6" component="h2" sx={{ mb: 1, px: { xs: 1, sm: 0 } }}>
              {translate('resources.list-items.name', { smart_count: 2 })}
            </Typography>
            <ListTreeEditor accountId={accountId} listId={id} />
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
