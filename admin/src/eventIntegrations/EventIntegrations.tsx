import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import {
  Confirm,
  Form,
  LinkBase,
  ResourceContextProvider,
  SaveButton,
  useCreate,
  useDelete,
  useGetList,
  useGetMany,
  useNotify,
  useTranslate,
  useUpdate,
  type HttpError,
} from 'react-admin';
import { eventIntegrations } from '../../../resources/eventIntegrations';
import { integrations } from '../../../resources/integrations';
import { kindOf } from '../generated/kinds';
import { bodyFor, titleOf, validateRecord } from '../generated/rules';
import { useResourceAccess } from '../generated/access';
import { consolePath } from '../console/access';

type Row = Record<string, unknown> & { id: string };
const decl = eventIntegrations;
const integrationMeta = decl.fields!.ei_integrationid;
const externalMeta = decl.fields!.ei_external_event_id;

/** The field errors of a refused save, for react-admin's form (message keys under the inputs). */
function fieldErrors(e: unknown, fallback: string): Record<string, string> {
  const fields = ((e as HttpError).body as { errors?: Record<string, string> } | undefined)?.errors;
  return fields ?? { [fallback]: (e as Error).message };
}

/** Adds an integration of the account that the event does not use yet, with the event's id at the provider. */
function AddEventIntegration({ eventId, linked, onAdded }: { eventId: string; linked: string[]; onAdded: () => void }) {
  const translate = useTranslate();
  const [create] = useCreate();
  const [key, setKey] = useState(0);
  const Integration = kindOf(integrationMeta).Input;
  const External = kindOf(externalMeta).Input;
  const submit = async (values: Record<string, unknown>) => {
    try {
      await create(decl.name, { data: bodyFor(decl, 'create', { ...values, ei_eventid: eventId }) }, { returnPromise: true });
      setKey((k) => k + 1);
      onAdded();
    } catch (e) {
      return fieldErrors(e, 'ei_integrationid');
    }
  };
  return (
    <Form key={key} onSubmit={submit} noValidate validate={(values) => validateRecord(decl, 'create', { ...values, ei_eventid: eventId })}>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr) auto' }, alignItems: 'start', maxWidth: 900 }}>
        <Integration source="ei_integrationid" meta={integrationMeta} decl={decl} mode="create" exclude={linked} />
        <External source="ei_external_event_id" meta={externalMeta} decl={decl} mode="create" />
        <Button type="submit" variant="outlined" startIcon={<AddIcon />} sx={{ mt: { md: 1 }, justifySelf: 'start' }} data-testid="event-integrations-add">
          {translate('ls.console.event_integrations.add')}
        </Button>
      </Box>
    </Form>
  );
}

/** One event integration: the provider, and its event id there (editable in place with the update bit). */
function EventIntegrationRow({
  row,
  title,
  canUpdate,
  canDelete,
  onRemove,
  onSaved,
}: {
  row: Row;
  title: string;
  canUpdate: boolean;
  canDelete: boolean;
  onRemove: () => void;
  onSaved: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [update] = useUpdate();
  const External = kindOf(externalMeta).Input;
  const submit = async (values: Record<string, unknown>) => {
    try {
      await update(decl.name, { id: row.id, data: bodyFor(decl, 'update', values), previousData: row }, { mutationMode: 'pessimistic', returnPromise: true });
      notify(translate('ls.console.event_integrations.saved', { name: title }), { type: 'success' });
      onSaved();
    } catch (e) {
      return fieldErrors(e, 'ei_external_event_id');
    }
  };
  return (
    <Box component="li" data-testid="event-integration" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, bgcolor: 'background.paper' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{title}</Typography>
        </Box>
        {canDelete && (
          <Tooltip title={translate('ls.console.event_integrations.remove', { name: title })}>
            <IconButton onClick={onRemove} color="error" aria-label={translate('ls.console.event_integrations.remove', { name: title })} sx={{ mt: -1 }}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <Form record={row} onSubmit={submit} noValidate validate={(values) => validateRecord(decl, 'update', values, row)}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
          <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
            <External source="ei_external_event_id" meta={externalMeta} decl={decl} mode="update" disabled={!canUpdate} helperText={false} />
          </Box>
          {canUpdate && <SaveButton variant="outlined" sx={{ mt: { sm: 1 }, flexShrink: 0 }} label={translate('ls.console.event_integrations.save')} />}
        </Box>
      </Form>
    </Box>
  );
}

/**
 * An event's integrations (account-console.md: event-integrations): each badge-scan provider the event uses, with the
 * event's id at that provider. Add one the event does not use yet, edit the id, remove after a confirmation. Buttons
 * follow the caller's account_event_integrations bits.
 */
export function EventIntegrations({ accountId, eventId }: { accountId: string; eventId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canCreate, canUpdate, canDelete } = useResourceAccess(decl.name);
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList<Row>(decl.name, { filter: { ei_eventid: eventId }, sort: { field: 'ei_created_at', order: 'ASC' }, pagination: { page: 1, perPage: 500 } });
  const { total: integrationCount } = useGetList(integrations.name, { pagination: { page: 1, perPage: 1 } });
  const { data: integrationRows = [] } = useGetMany<Row>(integrations.name, { ids: data.map((r) => r.ei_integrationid as string) }, { enabled: data.length > 0 });
  const [removing, setRemoving] = useState<Row | null>(null);
  const [remove, { isPending: deleting }] = useDelete();
  const titleOfRow = (row: Row) => {
    const integration = integrationRows.find((i) => i.id === row.ei_integrationid);
    return integration ? titleOf(integrations, integration) : String(row.ei_integrationid);
  };

  async function confirmRemove() {
    if (!removing) return;
    try {
      await remove(decl.name, { id: removing.id, previousData: removing }, { mutationMode: 'pessimistic', returnPromise: true });
      notify(translate('ls.console.event_integrations.removed', { name: titleOfRow(removing) }), { type: 'success' });
      setRemoving(null);
      await refetch();
    } catch (e) {
      notify((e as Error).message || 'ra.notification.http_error', { type: 'error' });
    }
  }

  return (
    <ResourceContextProvider value={decl.name}>
      <Box data-testid="event-integrations">
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('ls.console.event_integrations.help')}
        </Typography>
        {!isPending && data.length === 0 && (
          <Typography sx={{ mb: 2 }} data-testid="event-integrations-empty">
            {translate('ls.console.event_integrations.empty')}
          </Typography>
        )}
        {data.length > 0 && (
          <Box component="ul" sx={{ listStyle: 'none', m: 0, mb: 3, p: 0, display: 'flex', flexDirection: 'column', gap: 1, maxWidth: 720 }}>
            {data.map((row) => (
              <EventIntegrationRow
                key={row.id}
                row={row}
                title={titleOfRow(row)}
                canUpdate={canUpdate}
                canDelete={canDelete}
                onRemove={() => setRemoving(row)}
                onSaved={() => void refetch()}
              />
            ))}
          </Box>
        )}
        {canCreate &&
          integrationCount !== undefined &&
          (integrationCount === 0 ? (
            <Typography color="text.secondary">
              {translate('ls.console.event_integrations.no_integrations')}{' '}
              <Link component={LinkBase} to={consolePath(accountId, 'integrations/new')}>
                {translate('ls.console.event_integrations.create_integration')}
              </Link>
            </Typography>
          ) : integrationCount <= data.length ? (
            <Typography color="text.secondary" data-testid="event-integrations-all">
              {translate('ls.console.event_integrations.all_linked')}
            </Typography>
          ) : (
            <AddEventIntegration eventId={eventId} linked={data.map((r) => r.ei_integrationid as string)} onAdded={() => void refetch()} />
          ))}
        <Confirm
          isOpen={!!removing}
          loading={deleting}
          title={translate('ls.console.event_integrations.remove_title', { name: removing ? titleOfRow(removing) : '' })}
          content={translate('ls.console.event_integrations.remove_text')}
          confirm={translate('ls.console.event_integrations.remove_confirm')}
          confirmColor="warning"
          onConfirm={confirmRemove}
          onClose={() => setRemoving(null)}
        />
      </Box>
    </ResourceContextProvider>
  );
}
