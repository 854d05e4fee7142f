import { useMediaQuery, type Theme } from '@mui/material';
import Chip from '@mui/material/Chip';
import AddIcon from '@mui/icons-material/Add';
import { Button, DataTable, List, SimpleList, TopToolbar, useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router';
import type { User } from '../../../resources/users';
import { canEntry } from '../permissions';
import { useSession } from '../layout/useSession';
import { PAGE_SIZE, SinglePagePagination, useSearchFilters } from '../layout/lists';
import { ListEmpty } from '../layout/ListEmpty';
import { fullName } from '../providers/session';
import { RoleChip } from '../accounts/AccountMembers';
import { UserImportButton } from './UserImportButton';

type UserRecord = User & RaRecord;

function AddButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to="/users/new" label={translate('ls.users.add')} variant="contained" data-testid="add-user">
      <AddIcon />
    </Button>
  );
}

function Actions({ canCreate, canImport }: { canCreate: boolean; canImport: boolean }) {
  return (
    <TopToolbar>
      {canImport && <UserImportButton />}
      {canCreate && <AddButton />}
    </TopToolbar>
  );
}

function StatusChips({ record }: { record: UserRecord }) {
  const translate = useTranslate();
  return (
    <span style={{ display: 'inline-flex', gap: 6, flexWrap: 'wrap' }}>
      {!record.u_is_verified && (
        <Chip size="small" color="warning" variant="outlined" label={translate('resources.users.fields.u_is_verified') + ': ' + translate('ls.common.no')} />
      )}
      {!record.u_is_enabled && <Chip size="small" variant="outlined" label={translate('resources.users.fields.u_is_enabled') + ': ' + translate('ls.common.no')} />}
    </span>
  );
}

/**
 * /users: prefix search over e-mail, first and last name (server side, so 100,000 users page fast); rows show the
 * full name and e-mail; add opens /users/new, a row /users/{id}; CSV import for root only.
 */
export function UserList() {
  const { session } = useSession();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const canOpen = canEntry(session, 'users', 'edit') || canEntry(session, 'users', 'delete');
  const link = (r: RaRecord) => (canOpen ? `/users/${r.id}` : false);
  return (
    <List
      perPage={PAGE_SIZE}
      sort={{ field: 'u_email', order: 'ASC' }}
      filters={useSearchFilters()}
      actions={<Actions canCreate={canEntry(session, 'users', 'create')} canImport={canEntry(session, 'users', 'import')} />}
      empty={<ListEmpty text="ls.users.empty" action={canEntry(session, 'users', 'create') ? <AddButton /> : undefined} />}
      pagination={<SinglePagePagination />}
      exporter={false}
    >
      {small ? (
        <SimpleList<UserRecord> primaryText={(r) => fullName(r)} secondaryText={(r) => r.u_email} rowClick={(_id, _res, r) => link(r)} />
      ) : (
        <DataTable<UserRecord> rowClick={(_id, _res, r) => link(r)} bulkActionButtons={false} hover={canOpen}>
          <DataTable.Col source="u_last_name" label="ls.users.full_name" render={(r) => fullName(r)} />
          <DataTable.Col source="u_email" />
          <DataTable.Col source="u_role" render={(r) => <RoleChip role={r.u_role} />} />
          <DataTable.Col label=" " disableSort render={(r) => <StatusChips record={r as UserRecord} />} />
        </DataTable>
      )}
    </List>
  );
}
