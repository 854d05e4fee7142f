import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useMediaQuery, type Theme } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Button, DataTable, List, SimpleList, TopToolbar, useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router';
import type { AccountUser } from '../../../resources/accountUsers';
import { canEntry } from '../permissions';
import { useSession } from '../layout/useSession';
import { PAGE_SIZE, SinglePagePagination, useSearchFilters } from '../layout/lists';
import { fullName } from '../providers/session';

type Member = AccountUser & RaRecord;

function MembersEmpty({ accountId, canCreate }: { accountId: string; canCreate: boolean }) {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3, textAlign: 'center' }}>
      <Typography color="text.secondary" sx={{ mb: canCreate ? 2 : 0 }}>
        {translate('ls.members.empty')}
      </Typography>
      {canCreate && (
        <Button component={Link} to={`/accounts/${accountId}/users/new`} label={translate('ls.members.add')} variant="contained">
          <PersonAddIcon />
        </Button>
      )}
    </Box>
  );
}

export function RoleChip({ role }: { role: string }) {
  const translate = useTranslate();
  const color = role === 'root' ? 'error' : role === 'superadmin' ? 'primary' : role === 'admin' ? 'secondary' : 'default';
  return <Chip size="small" variant="outlined" color={color} label={translate(`ls.roles.${role}`, { _: role })} />;
}

/** The account's members below the account form (spec 2), gated by entry_account_users. */
export function AccountMembers({ accountId }: { accountId: string }) {
  const translate = useTranslate();
  const { session } = useSession();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const canCreate = canEntry(session, 'accountUsers', 'create');
  const canOpen = canEntry(session, 'accountUsers', 'edit') || canEntry(session, 'accountUsers', 'delete');
  const link = (record: Member) => (canOpen ? `/accounts/${accountId}/users/${record.au_userid}` : false);
  return (
    <Box component="section" aria-labelledby="members-title" sx={{ mt: 3 }} data-testid="account-members">
      <Typography id="members-title" variant="h6" component="h2" sx={{ mb: 0.5 }}>
        {translate('ls.members.title')}
      </Typography>
      <List
        resource="accountUsers"
        queryOptions={{ meta: { accountId } }}
        disableSyncWithLocation
        storeKey={false}
        title={false}
        perPage={PAGE_SIZE}
        sort={{ field: 'u_email', order: 'ASC' }}
        filters={useSearchFilters()}
        actions={
          canCreate ? (
            <TopToolbar>
              <Button component={Link} to={`/accounts/${accountId}/users/new`} label={translate('ls.members.add')} variant="contained">
                <PersonAddIcon />
              </Button>
            </TopToolbar>
          ) : (
            false
          )
        }
        empty={<MembersEmpty accountId={accountId} canCreate={canCreate} />}
        pagination={<SinglePagePagination />}
        exporter={false}
        sx={{ '& .RaList-main': { mt: 0 } }}
      >
        {small ? (
          <SimpleList<Member>
            primaryText={(r) => fullName(r)}
            secondaryText={(r) => r.u_email}
            tertiaryText={(r) => translate(`ls.roles.${r.au_role}`)}
            rowClick={(_id, _res, r) => link(r as Member)}
          />
        ) : (
          <DataTable<Member> rowClick={(_id, _res, r) => link(r as Member)} bulkActionButtons={false} hover={canOpen}>
            <DataTable.Col source="u_first_name" label={translate('ls.users.full_name')} render={(r) => fullName(r)} />
            <DataTable.Col source="u_email" />
            <DataTable.Col source="au_role" render={(r) => <RoleChip role={r.au_role} />} />
            <DataTable.Col source="au_external_id" disableSort />
          </DataTable>
        )}
      </List>
    </Box>
  );
}
