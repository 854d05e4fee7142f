import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BooleanInput, DeleteWithConfirmButton, PasswordInput, SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, useRecordContext, useTranslate } from 'react-admin';
import { ROLES } from '../../../resources/permissions';
import { userSchemas, DEFAULT_PASSWORD_MIN_LENGTH, type User } from '../../../resources/users';
import { zodValidate } from '../layout/zod';
import { canEntry } from '../permissions';
import type { Session } from '../providers/session';
import { fullName } from '../providers/session';

/** Keep empty text as '' (react-admin turns it into null, which the name fields do not accept). */
const keepText = (v: string) => v;

/**
 * The user form's rules (spec 5), from the shared schemas: create -> password and confirmation required; edit ->
 * optional, but when either is filled both rules apply. Password fields appear only when creating or with
 * entry_users change_password.
 */
export function userFormRules(session: Session | null | undefined, isNew: boolean) {
  const minLength = session?.settings?.passwordMinLength ?? DEFAULT_PASSWORD_MIN_LENGTH;
  const schemas = userSchemas(minLength);
  const showPassword = isNew || canEntry(session, 'users', 'change_password');
  return { minLength, showPassword, validate: zodValidate(isNew ? schemas.create : schemas.update, { min: minLength }) };
}

function UserToolbar({ isNew, session }: { isNew: boolean; session: Session | null | undefined }) {
  const record = useRecordContext<User & { id: string }>();
  const translate = useTranslate();
  const canSave = canEntry(session, 'users', isNew ? 'create' : 'edit');
  const canDelete = !isNew && !!record?.id && canEntry(session, 'users', 'delete') && record.id !== session?.user.u_id;
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
      {canSave ? <SaveButton /> : <span />}
      {canDelete && (
        <DeleteWithConfirmButton
          mutationMode="pessimistic"
          redirect="/users"
          confirmTitle="ra.message.delete_title"
          translateOptions={{ name: translate('resources.users.name', { smart_count: 1 }), recordRepresentation: record ? fullName(record) : '' }}
        />
      )}
    </Toolbar>
  );
}

export function UserForm({ isNew = false, session }: { isNew?: boolean; session: Session | null | undefined }) {
  const translate = useTranslate();
  const { showPassword, validate, minLength } = useMemo(() => userFormRules(session, isNew), [session, isNew]);
  const roleChoices = ROLES.map((r) => ({ id: r, name: translate(`ls.roles.${r}`) }));
  const grid = { display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2, width: '100%' } as const;
  return (
    <SimpleForm
      // The shared zod rules (spec 5 messages) validate; the browser's own checks would pre-empt them.
      noValidate
      validate={validate}
      toolbar={<UserToolbar isNew={isNew} session={session} />}
      defaultValues={isNew ? { u_first_name: '', u_last_name: '', u_role: 'member', u_is_verified: false, u_is_enabled: true } : undefined}
      sx={{ maxWidth: 900 }}
    >
      <Box sx={grid}>
        <TextInput source="u_first_name" parse={keepText} fullWidth autoFocus={isNew} />
        <TextInput source="u_last_name" parse={keepText} fullWidth />
        <TextInput source="u_email" type="email" fullWidth isRequired />
        <SelectInput source="u_role" choices={roleChoices} fullWidth />
      </Box>
      <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap' }}>
        <BooleanInput source="u_is_verified" />
        <BooleanInput source="u_is_enabled" />
      </Box>
      {showPassword && (
        <Box sx={{ width: '100%' }} data-testid="password-fields">
          <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 1, textTransform: 'uppercase', letterSpacing: '0.06em', fontSize: 12 }}>
            {translate('ls.users.password_section')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {isNew ? translate('ls.reset.hint', { min: minLength }) : `${translate('ls.users.password_optional')} ${translate('ls.reset.hint', { min: minLength })}`}
          </Typography>
          <Box sx={grid}>
            <PasswordInput source="u_password" autoComplete="new-password" fullWidth isRequired={isNew} />
            <PasswordInput source="u_password_confirm" autoComplete="new-password" fullWidth isRequired={isNew} />
          </Box>
        </Box>
      )}
    </SimpleForm>
  );
}
