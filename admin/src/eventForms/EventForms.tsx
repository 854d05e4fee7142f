import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Confirm, Form, LinkBase, ResourceContextProvider, useCreate, useDelete, useGetList, useGetMany, useNotify, useTranslate, type HttpError } from 'react-admin';
import { eventForms } from '../../../resources/eventForms';
import { forms } from '../../../resources/forms';
import { kindOf } from '../generated/kinds';
import { titleOf, validateRecord } from '../generated/rules';
import { useResourceAccess } from '../generated/access';
import { SortableList } from '../layout/SortableList';
import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';
import { failureText } from '../providers/failure';
import { consolePath } from '../console/access';

type Row = Record<string, unknown> & { id: string };
const formMeta = eventForms.fields!.ef_formid;

/** Adds a form of the account that the event does not have yet (the declaration's reference input, forms excluded). */
function AddEventForm({ eventId, linked, onAdded }: { eventId: string; linked: string[]; onAdded: () => void }) {
  const translate = useTranslate();
  const [create] = useCreate();
  const [key, setKey] = useState(0);
  const { Input } = kindOf(formMeta);
  const submit = async (values: Record<string, unknown>) => {
    try {
      await create('event-forms', { data: { ef_eventid: eventId, ef_formid: values.ef_formid } }, { returnPromise: true });
      setKey((k) => k + 1);
      onAdded();
    } catch (e) {
      const fields = ((e as HttpError).body as { errors?: Record<string, string> } | undefined)?.errors;
      return fields ?? { ef_formid: (e as Error).message };
    }
  };
  return (
    <Form key={key} onSubmit={submit} noValidate validate={(values) => validateRecord(eventForms, 'create', { ...values, ef_eventid: eventId })}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' }, maxWidth: 640 }}>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <Input source="ef_formid" meta={formMeta} decl={eventForms} mode="create" exclude={linked} />
        </Box>
        <Button type="submit" variant="outlined" startIcon={<AddIcon />} sx={{ mt: { sm: 1 }, flexShrink: 0 }} data-testid="event-forms-add">
          {translate('ls.console.event_forms.add')}
        </Button>
      </Box>
    </Form>
  );
}

/**
 * An event's forms (account-console.md: event-forms): the forms booth staff fill for a lead, in order. Add a form the
 * event does not have, drag (or move by keyboard) to reorder (PUT /event-forms/order with every id), remove after a
 * confirmation. Buttons follow the caller's account_event_forms bits.
 */
export function EventForms({ accountId, eventId }: { accountId: string; eventId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canCreate, canUpdate, canDelete } = useResourceAccess(eventForms.name);
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList<Row>(eventForms.name, {
    filter: { ef_eventid: eventId },
    sort: { field: 'ef_order', order: 'ASC' },
    pagination: { page: 1, perPage: 500 },
  });
  const { total: formCount } = useGetList(forms.name, { pagination: { page: 1, perPage: 1 } });
  const { data: formRows = [] } = useGetMany<Row>(forms.name, { ids: data.map((r) => r.ef_formid as string) }, { enabled: data.length > 0 });
  const [removing, setRemoving] = useState<Row | null>(null);
  const [remove, { isPending: deleting }] = useDelete();
  const formOf = (row: Row) => formRows.find((f) => f.id === row.ef_formid);
  const nameOf = (row: Row) => {
    const form = formOf(row);
    return form ? titleOf(forms, form) : String(row.ef_formid);
  };

  async function store(ids: string[]) {
    try {
      await api(accountPath(accountId, 'event-forms', 'order'), { method: 'PUT', body: { ids } });
      await refetch();
    } catch (e) {
      const text = failureText(e, translate);
      notify(text, { type: 'error' });
      throw new Error(text, { cause: e });
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    try {
      await remove(eventForms.name, { id: removing.id, previousData: removing }, { mutationMode: 'pessimistic', returnPromise: true });
      notify(translate('ls.console.event_forms.removed', { name: nameOf(removing) }), { type: 'success' });
      setRemoving(null);
      await refetch();
    } catch (e) {
      notify((e as Error).message || 'ra.notification.http_error', { type: 'error' });
    }
  }

  return (
    <ResourceContextProvider value={eventForms.name}>
      <Box data-testid="event-forms">
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('ls.console.event_forms.help')}
        </Typography>
        {!isPending && data.length === 0 && (
          <Typography sx={{ mb: 2 }} data-testid="event-forms-empty">
            {translate('ls.console.event_forms.empty')}
          </Typography>
        )}
        {data.length > 0 && (
          <Box sx={{ mb: 3, maxWidth: 720 }}>
            <SortableList
              items={data}
              nameOf={nameOf}
              canMove={canUpdate && data.length > 1}
              label={translate('ls.console.event_forms.list_label')}
              onCommit={store}
              testId="event-forms-list"
              renderRow={(row, index) => {
                const form = formOf(row);
                return (
                  <>
                    <Typography component="span" color="text.secondary" sx={{ width: 24, textAlign: 'right', flexShrink: 0 }}>
                      {index + 1}.
                    </Typography>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography component="div" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="event-form-title">
                        {nameOf(row)}
                      </Typography>
                      {form && (
                        <Typography component="div" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                          {String(form.f_name ?? '')}
                        </Typography>
                      )}
                    </Box>
                    <Tooltip title={translate('ls.console.event_forms.open', { name: nameOf(row) })}>
                      <IconButton
                        component={LinkBase}
                        to={consolePath(accountId, `forms/${String(row.ef_formid)}`)}
                        aria-label={translate('ls.console.event_forms.open', { name: nameOf(row) })}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    {canDelete && (
                      <Tooltip title={translate('ls.console.event_forms.remove', { name: nameOf(row) })}>
                        <IconButton onClick={() => setRemoving(row)} aria-label={translate('ls.console.event_forms.remove', { name: nameOf(row) })} color="error">
                          <DeleteIcon />
                        </IconButton>
                      </Tooltip>
                    )}
                  </>
                );
              }}
            />
          </Box>
        )}
        {canCreate &&
          formCount !== undefined &&
          (formCount === 0 ? (
            <Typography color="text.secondary">
              {translate('ls.console.event_forms.no_forms')}{' '}
              <Link component={LinkBase} to={consolePath(accountId, 'forms/new')}>
                {translate('ls.console.event_forms.create_form')}
              </Link>
            </Typography>
          ) : formCount <= data.length ? (
            <Typography color="text.secondary" data-testid="event-forms-all">
              {translate('ls.console.event_forms.all_linked')}
            </Typography>
          ) : (
            <AddEventForm eventId={eventId} linked={data.map((r) => r.ef_formid as string)} onAdded={() => void refetch()} />
          ))}
        <Confirm
          isOpen={!!removing}
          loading={deleting}
          title={translate('ls.console.event_forms.remove_title', { name: removing ? nameOf(removing) : '' })}
          content={translate('ls.console.event_forms.remove_text')}
          confirm={translate('ls.console.event_forms.remove_confirm')}
          confirmColor="warning"
          onConfirm={confirmRemove}
          onClose={() => setRemoving(null)}
        />
      </Box>
    </ResourceContextProvider>
  );
}
