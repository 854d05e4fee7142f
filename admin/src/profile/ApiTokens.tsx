import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { Confirm, useLocale, useTranslate } from 'react-admin';
import { api, ApiRequestError } from '../providers/http';
import { failureText } from '../providers/failure';
import { canInAccount, roleInAccount } from '../permissions';
import { useSession } from '../layout/useSession';
import { CopyButton } from '../layout/CopyButton';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_EXPIRY_CHOICES, API_TOKEN_TITLE_MAX, apiTokenCreateSchema, type ApiToken } from '../../../resources/apiTokens';
import { ROLE_RANK, ROLES, type Role } from '../../../resources/roles';
import type { Session } from '../providers/session';

const TOKENS = '/auth/tokens';
/** Columns left out on a phone, so the table (and its revoke buttons) fits the screen. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;
const DAY_MS = 24 * 3600 * 1000;

/** The accounts the caller may make a token for: app_general export_curl there (platform-and-flows.md section 2). */
export function tokenAccounts(session: Session | null | undefined) {
  return (session?.accounts ?? []).filter((a) => canInAccount(session, a.a_id, 'app_general', 'export_curl'));
}

/** The roles a token for that account may have: at most the caller's own there. */
export function tokenRoles(session: Session | null | undefined, accountId: string): Role[] {
  const mine = roleInAccount(session, accountId) as Role | undefined;
  if (!mine) return [];
  return ROLES.filter((r) => ROLE_RANK[r] <= ROLE_RANK[mine]);
}

/**
 * The profile page's API tokens (platform-and-flows.md section 2): the caller's tokens (title, account, role, expiry,
 * last use), a dialog that makes one and shows its secret once with a copy button, and revoking with a confirmation.
 * Making one is offered only for accounts where the caller has export_curl; the API checks the same.
 */
export function ApiTokens() {
  const translate = useTranslate();
  const locale = useLocale();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const { data, error, isPending } = useQuery<ApiToken[], ApiRequestError>({
    queryKey: ['ls.apiTokens'],
    queryFn: ({ signal }) => api<ApiToken[]>(TOKENS, { signal }),
    retry: false,
  });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState('');
  const accounts = tokenAccounts(session);
  const reload = () => queryClient.invalidateQueries({ queryKey: ['ls.apiTokens'] });
  const date = (value: string | null) => (value ? new Date(value).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : '');

  const revoke = async () => {
    if (!revoking) return;
    setRevokeBusy(true);
    setRevokeError('');
    try {
      await api(`${TOKENS}/${revoking.tk_id}`, { method: 'DELETE' });
      setRevoking(null);
    } catch (e) {
      setRevokeError(failureText(e, translate));
      setRevoking(null);
    } finally {
      setRevokeBusy(false);
      await reload();
    }
  };

  return (
    <Box component="section" aria-labelledby="api-tokens-title" data-testid="api-tokens">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" id="api-tokens-title">
          {translate('ls.tokens.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} disabled={!accounts.length}>
          {translate('ls.tokens.create')}
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 2 }}>
        {translate(accounts.length ? 'ls.tokens.intro' : 'ls.tokens.no_accounts')}
      </Typography>
      {revokeError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {revokeError}
        </Alert>
      )}
      {isPending ? (
        <Typography color="text.secondary">{translate('ls.common.loading')}</Typography>
      ) : error ? (
        <Alert severity="error">{failureText(error, translate)}</Alert>
      ) : !data?.length ? (
        <Typography color="text.secondary" data-testid="api-tokens-empty">
          {translate('ls.tokens.empty')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby="api-tokens-title">
            <TableHead>
              <TableRow>
                <TableCell>{translate('ls.tokens.fields.tk_title')}</TableCell>
                <TableCell sx={WIDE_ONLY}>{translate('ls.tokens.fields.tk_accountid')}</TableCell>
                <TableCell>{translate('ls.tokens.fields.tk_role')}</TableCell>
                <TableCell>{translate('ls.tokens.fields.tk_expires_at')}</TableCell>
                <TableCell sx={WIDE_ONLY}>{translate('ls.tokens.fields.tk_last_used_at')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((tk) => {
                const expired = new Date(tk.tk_expires_at).getTime() <= Date.now();
                return (
                  <TableRow key={tk.tk_id} data-testid="api-token-row">
                    <TableCell>
                      {tk.tk_title}
                      {/* on a phone the account goes under the name (its column is left out) */}
                      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                        {tk.a_name}
                      </Typography>
                    </TableCell>
                    <TableCell sx={WIDE_ONLY}>{tk.a_name}</TableCell>
                    <TableCell>{translate(`ls.roles.${tk.tk_role}`)}</TableCell>
                    <TableCell>
                      {date(tk.tk_expires_at)} {expired && <Chip size="small" color="warning" label={translate('ls.tokens.expired')} />}
                    </TableCell>
                    <TableCell sx={WIDE_ONLY}>{tk.tk_last_used_at ? date(tk.tk_last_used_at) : translate('ls.tokens.never_used')}</TableCell>
                    <TableCell align="right">
                      <IconButton aria-label={translate('ls.tokens.revoke_named', { name: tk.tk_title })} onClick={() => setRevoking(tk)} size="small">
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      )}
      {creating && (
        <CreateTokenDialog
          session={session}
          onCreated={() => void reload()}
          onClose={() => {
            setCreating(false);
          }}
        />
      )}
      <Confirm
        isOpen={!!revoking}
        loading={revokeBusy}
        title={translate('ls.tokens.revoke_title', { name: revoking?.tk_title ?? '' })}
        content={translate('ls.tokens.revoke_text')}
        confirm={translate('ls.tokens.revoke')}
        confirmColor="warning"
        onConfirm={() => void revoke()}
        onClose={() => setRevoking(null)}
      />
    </Box>
  );
}

type Fields = Record<string, string>;

/** Makes a token; once made, shows its secret (and only then) with a copy button. */
function CreateTokenDialog({ session, onCreated, onClose }: { session: Session | null | undefined; onCreated: () => void; onClose: () => void }) {
  const translate = useTranslate();
  const accounts = tokenAccounts(session);
  const [title, setTitle] = useState('');
  const [accountId, setAccountId] = useState(accounts[0]?.a_id ?? '');
  const roles = useMemo(() => tokenRoles(session, accountId), [session, accountId]);
  const [role, setRole] = useState<string>(roles[roles.length - 1] ?? 'member');
  const [days, setDays] = useState<number>(API_TOKEN_DEFAULT_DAYS);
  const [fields, setFields] = useState<Fields>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const changeAccount = (id: string) => {
    setAccountId(id);
    const allowed = tokenRoles(session, id);
    if (!allowed.includes(role as Role)) setRole(allowed[allowed.length - 1] ?? 'member');
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const body = { tk_title: title, tk_accountid: accountId, tk_role: role, tk_expires_at: new Date(Date.now() + days * DAY_MS).toISOString() };
    // The same schema as the API's, so the dialog says what is wrong before sending.
    const parsed = apiTokenCreateSchema.safeParse(body);
    if (!parsed.success) {
      const found: Fields = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setFields(found);
      return;
    }
    setBusy(true);
    setFields({});
    setError('');
    try {
      const created = await api<ApiToken & { token: string }>(TOKENS, { method: 'POST', body });
      setSecret(created.token);
      onCreated();
    } catch (e) {
      if (e instanceof ApiRequestError && e.body.fields) setFields(e.body.fields);
      setError(failureText(e, translate));
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (name: string) => (fields[name] ? translate(fields[name]) : undefined);

  if (secret)
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="api-token-secret-title">
        <DialogTitle id="api-token-secret-title">{translate('ls.tokens.created_title')}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('ls.tokens.created_once')}
          </Alert>
          <TextField
            label={translate('ls.tokens.secret')}
            value={secret}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'api-token-secret', style: { fontFamily: 'monospace' } } }}
          />
          <Box sx={{ mt: 1 }}>
            <CopyButton value={secret} label={translate('ls.tokens.secret')} />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose}>
            {translate('ls.tokens.done')}
          </Button>
        </DialogActions>
      </Dialog>
    );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="api-token-create-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="api-token-create-title">{translate('ls.tokens.create_title')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          <TextField
            label={translate('ls.tokens.fields.tk_title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            autoFocus
            error={!!fields.tk_title}
            helperText={fieldError('tk_title') ?? translate('ls.tokens.title_help')}
            slotProps={{ htmlInput: { maxLength: API_TOKEN_TITLE_MAX } }}
          />
          <TextField
            select
            label={translate('ls.tokens.fields.tk_accountid')}
            value={accountId}
            onChange={(e) => changeAccount(e.target.value)}
            required
            error={!!fields.tk_accountid}
            helperText={fieldError('tk_accountid')}
          >
            {accounts.map((a) => (
              <MenuItem key={a.a_id} value={a.a_id}>
                {a.a_name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={translate('ls.tokens.fields.tk_role')}
            value={role}
            onChange={(e) => setRole(e.target.value)}
            required
            error={!!fields.tk_role}
            helperText={fieldError('tk_role') ?? translate('ls.tokens.role_help')}
          >
            {roles.map((r) => (
              <MenuItem key={r} value={r}>
                {translate(`ls.roles.${r}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={translate('ls.tokens.fields.tk_expires_at')}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            error={!!fields.tk_expires_at}
            helperText={fieldError('tk_expires_at')}
          >
            {API_TOKEN_EXPIRY_CHOICES.map((d) => (
              <MenuItem key={d} value={d}>
                {translate('ls.tokens.days', { smart_count: d, count: d })}
              </MenuItem>
            ))}
          </TextField>
          {error && <Alert severity="error">{error}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ls.common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('ls.tokens.create_submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
