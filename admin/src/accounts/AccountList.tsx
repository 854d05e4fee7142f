import { useMediaQuery, type Theme } from '@mui/material';
import Chip from '@mui/material/Chip';
import AddIcon from '@mui/icons-material/Add';
import { Button, DataTable, List, SimpleList, TopToolbar, useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router';
import type { Account } from '../../../resources/accounts';
import { canEntry } from '../permissions';
import { useSession } from '../layout/useSession';
import { PAGE_SIZE, SinglePagePagination, useSearchFilters } from '../layout/lists';
import { ListEmpty } from '../layout/ListEmpty';

function AddButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to="/accounts/new" label={translate('ls.accounts.add')} variant="contained" data-testid="add-account">
      <AddIcon />
    </Button>
  );
}

function Actions({ canCreate }: { canCreate: boolean }) {
  return <TopToolbar>{canCreate && <AddButton />}</TopToolbar>;
}

function EnabledChip({ record }: { record: Account }) {
  const translate = useTranslate();
  return <Chip size="small" variant="outlined" color={record.a_is_enabled ? 'success' : 'default'} label={translate(record.a_is_enabled ? 'ls.common.yes' : 'ls.common.no')} />;
}

/**
 * /accounts: prefix search by name, 25 per page (no pager for one page); add only with create, a row opens the
 * account only with update or delete (spec 2).
 */
export function AccountList() {
  const { session } = useSession();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const canOpen = canEntry(session, 'accounts', 'edit') || canEntry(session, 'accounts', 'delete');
  const rowLink = (record: RaRecord) => (canOpen ? `/accounts/${record.id}` : false);
  return (
    <List
      perPage={PAGE_SIZE}
      sort={{ field: 'a_name', order: 'ASC' }}
      filters={useSearchFilters()}
      actions={<Actions canCreate={canEntry(session, 'accounts', 'create')} />}
      empty={<ListEmpty text="ls.accounts.empty" action={canEntry(session, 'accounts', 'create') ? <AddButton /> : undefined} />}
      pagination={<SinglePagePagination />}
      exporter={false}
    >
      {small ? (
        <SimpleList<Account & RaRecord> primaryText={(r) => r.a_name} secondaryText={(r) => r.a_email_domain ?? ''} rowClick={(_id, _res, record) => rowLink(record)} />
      ) : (
        <DataTable<Account & RaRecord> rowClick={(_id, _res, record) => rowLink(record)} bulkActionButtons={false} hover={canOpen}>
          <DataTable.Col source="a_name" />
          <DataTable.Col source="a_email_domain" />
          <DataTable.Col source="a_admin_url" disableSort />
          <DataTable.Col source="a_is_enabled" render={(r) => <EnabledChip record={r as Account} />} />
        </DataTable>
      )}
    </List>
  );
}
