import { AutocompleteInput, ReferenceInput, SelectInput, useGetList, useTranslate, type RaRecord } from 'react-admin';
import Alert from '@mui/material/Alert';
import type { User } from '../../../resources/users';
import { fullName } from '../providers/session';

/** Spec 9: the select gets a search box when it has more than 15 items. */
export const SELECT_SEARCH_THRESHOLD = 15;

const userLabel = (record: RaRecord) => {
  const u = record as unknown as User;
  return fullName(u) === u.u_email ? u.u_email : `${fullName(u)} · ${u.u_email}`;
};
const required = (v: unknown) => (v ? undefined : 'error_required');

/**
 * The member form's user picker: only users not yet linked to the account (GET /accounts/{id}/users/unlinked).
 * Up to 15 candidates: a plain select; more: a server-side search (filter.q, prefix), so 100,000 users stay fast.
 */
export function UserPicker({ accountId }: { accountId: string }) {
  const translate = useTranslate();
  const { total, isPending } = useGetList('unlinkedUsers', { pagination: { page: 1, perPage: 1 }, meta: { accountId } });
  if (isPending) return <SelectInput source="au_userid" label={translate('ls.members.user')} choices={[]} disabled fullWidth />;
  if (!total)
    return (
      <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
        {translate('ls.members.no_candidates')}
      </Alert>
    );
  const searchable = total > SELECT_SEARCH_THRESHOLD;
  return (
    <ReferenceInput
      source="au_userid"
      reference="unlinkedUsers"
      queryOptions={{ meta: { accountId } }}
      perPage={searchable ? 25 : SELECT_SEARCH_THRESHOLD}
      sort={{ field: 'u_email', order: 'ASC' }}
    >
      {searchable ? (
        <AutocompleteInput
          label={translate('ls.members.user')}
          optionText={userLabel}
          filterToQuery={(q: string) => ({ q })}
          TextFieldProps={{ placeholder: translate('ls.members.search_user') }}
          validate={required}
          fullWidth
        />
      ) : (
        <SelectInput label={translate('ls.members.user')} optionText={userLabel} validate={required} fullWidth />
      )}
    </ReferenceInput>
  );
}
