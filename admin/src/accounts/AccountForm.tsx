import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BooleanInput, DeleteWithConfirmButton, SaveButton, SimpleForm, TextInput, Toolbar, useRecordContext, useTranslate } from 'react-admin';
import { accountCreate, accountUpdate, type Account } from '../../../resources/accounts';
import { zodValidate } from '../layout/zod';
import { canEntry } from '../permissions';
import { useSession } from '../layout/useSession';

const validateCreate = zodValidate(accountCreate);
const validateUpdate = zodValidate(accountUpdate);

function AccountToolbar({ isNew }: { isNew: boolean }) {
  const record = useRecordContext<Account & { id: string }>();
  const { session } = useSession();
  // Spec 6: saving needs create (new) or update (existing); delete only with delete on an existing record.
  const canSave = canEntry(session, 'accounts', isNew ? 'create' : 'edit');
  const canDelete = !isNew && !!record?.id && canEntry(session, 'accounts', 'delete');
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
      {canSave ? <SaveButton /> : <span />}
      {canDelete && <DeleteWithConfirmButton mutationMode="pessimistic" confirmTitle="ra.message.delete_title" redirect="/accounts" />}
    </Toolbar>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%', mb: 1 }}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 0.5, textTransform: 'uppercase', letterSpacing: '0.06em', fontSize: 12 }}>
        {translate(title)}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>{children}</Box>
    </Box>
  );
}

/** The account form (spec 3): name (at least 1 character), e-mail domain, addresses, public key, enabled. */
export function AccountForm({ isNew = false }: { isNew?: boolean }) {
  const translate = useTranslate();
  return (
    <SimpleForm
      // The shared zod rules (spec 5 messages) validate; the browser's own checks would pre-empt them.
      noValidate
      validate={isNew ? validateCreate : validateUpdate}
      toolbar={<AccountToolbar isNew={isNew} />}
      defaultValues={isNew ? { a_is_enabled: true } : undefined}
      sx={{ maxWidth: 1000 }}
    >
      <Section title="ls.accounts.details">
        <TextInput source="a_name" fullWidth isRequired autoFocus={isNew} />
        <TextInput source="a_email_domain" fullWidth helperText={translate('ls.accounts.domain_help')} />
        <BooleanInput source="a_is_enabled" />
      </Section>
      <Section title="ls.accounts.urls">
        <TextInput source="a_admin_url" type="url" fullWidth />
        <TextInput source="a_api_url" type="url" fullWidth />
        <TextInput source="a_storage_url" type="url" fullWidth />
      </Section>
      <TextInput source="a_public_key" fullWidth multiline minRows={2} sx={{ '& textarea': { fontFamily: 'monospace', fontSize: 13 } }} />
      {isNew && (
        <Typography variant="body2" color="text.secondary">
          {translate('ls.accounts.saved_hint')}
        </Typography>
      )}
    </SimpleForm>
  );
}
