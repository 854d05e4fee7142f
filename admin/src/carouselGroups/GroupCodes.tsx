import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/QrCode2';
import { LinkBase, useCreate, useGetList, useNotify, useTranslate, type RaRecord } from 'react-admin';
import { codes } from '../../../resources/carousels';
import { useResourceAccess } from '../generated/access';
import { consolePath } from '../console/access';
import { QrImage } from '../codes/CodeQr';
import { OpenPlayerButton } from '../codes/CodeList';
import { playerUrl } from '../codes/qr';

/** "New code": a title (optional, e.g. where the screen stands); the server makes the code. */
function NewCodeDialog({ groupId, onClose, onCreated }: { groupId: string; onClose: () => void; onCreated: (code: RaRecord) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [create, { isPending }] = useCreate();
  const [title, setTitle] = useState('');
  const submit = async () => {
    try {
      const code = await create(codes.name, { data: { cc_groupid: groupId, cc_title: title.trim() || null } }, { returnPromise: true });
      onCreated(code);
    } catch (e) {
      notify((e as Error).message || 'ra.notification.http_error', { type: 'error' });
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="new-code-title">
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="new-code-title">{translate('ls.carouselGroups.new_code')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('ls.carouselGroups.new_code_help')}
          </Typography>
          <TextField
            autoFocus
            fullWidth
            label={translate('resources.codes.fields.cc_title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'new-code-title' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isPending} data-testid="new-code-create">
            {translate('ls.carouselGroups.create_code')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * The codes that open a group in the player (account-console.md: codes), each with its QR, title, a link to its page
 * (downloads and print) and one that opens the player; "New code" with the codes create bit.
 */
export function GroupCodes({ accountId, groupId }: { accountId: string; groupId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canCreate } = useResourceAccess(codes.name);
  const [creating, setCreating] = useState(false);
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList(codes.name, { filter: { cc_groupid: groupId }, sort: { field: 'cc_created_at', order: 'ASC' }, pagination: { page: 1, perPage: 100 } });
  return (
    <Box data-testid="group-codes">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('ls.carouselGroups.codes_help')}
      </Typography>
      {!isPending && data.length === 0 && (
        <Typography sx={{ mb: 2 }} data-testid="group-codes-empty">
          {translate('ls.carouselGroups.no_codes')}
        </Typography>
      )}
      {data.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2, display: 'grid', gap: 1, maxWidth: 720 }} aria-label={translate('resources.codes.name_other')}>
          {data.map((code) => {
            const value = String(code.cc_code);
            return (
              <Box
                component="li"
                key={code.id}
                data-testid="group-code"
                sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 1, border: 1, borderColor: 'divider', borderRadius: 1, minWidth: 0 }}
              >
                <QrImage text={playerUrl(value)} size={56} label={translate('ls.codes.qr_label', { code: value })} />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontWeight: 700, letterSpacing: '0.08em' }} data-testid="group-code-value">
                    {value}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {code.cc_title ? String(code.cc_title) : translate('ls.carouselGroups.untitled_code')}
                  </Typography>
                </Box>
                <Tooltip title={translate('ls.carouselGroups.open_code', { code: value })}>
                  <IconButton
                    component={LinkBase}
                    to={consolePath(accountId, `codes/${code.id}`)}
                    aria-label={translate('ls.carouselGroups.open_code', { code: value })}
                    data-testid="group-code-open"
                  >
                    <EditIcon />
                  </IconButton>
                </Tooltip>
                <OpenPlayerButton record={code} />
              </Box>
            );
          })}
        </Box>
      )}
      {canCreate && (
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setCreating(true)} data-testid="group-new-code">
          {translate('ls.carouselGroups.new_code')}
        </Button>
      )}
      {creating && (
        <NewCodeDialog
          groupId={groupId}
          onClose={() => setCreating(false)}
          onCreated={(code) => {
            setCreating(false);
            notify(translate('ls.carouselGroups.code_created', { code: String(code.cc_code) }), { type: 'success' });
            void refetch();
          }}
        />
      )}
    </Box>
  );
}
