import { useMemo } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { CreateBase, EditBase, useNotify, useRecordContext, type HttpError } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedForm, type FieldOverride } from '../generated/GeneratedForm';
import { bodyFor, formFields, titleOf } from '../generated/rules';
import { savedToast } from '../layout/Toast';

type Row = Record<string, unknown>;

export interface RecordDialogProps {
  decl: ResourceDeclaration;
  /** The record to edit; none: a new one. */
  id?: string;
  title: string;
  /** A new record's values the form does not show (its parent). */
  defaults?: Row;
  /** Fields not shown (the parent). */
  hidden?: readonly string[];
  onClose: () => void;
  onSaved: (record: Row) => void;
}

/** The update form once the record is loaded. */
function EditForm({ decl, overrides, onCancel }: { decl: ResourceDeclaration; overrides: Record<string, FieldOverride>; onCancel: () => void }) {
  const record = useRecordContext();
  if (!record) return null;
  return <GeneratedForm decl={decl} mode="update" canSave canDelete={false} overrides={overrides} onCancel={onCancel} staticToolbar maxWidth="none" />;
}

/**
 * A part of the carousel (a variant, a slide) created or edited in a dialog with the generated form of its
 * declaration, saved through the console's data provider: the same fields, rules, field errors and "saved" toast as
 * its generated screen, without leaving the editor.
 */
export function RecordDialog({ decl, id, title, defaults, hidden = [], onClose, onSaved }: RecordDialogProps) {
  const notify = useNotify();
  const fullScreen = useMediaQuery('(max-width:767.95px)');
  const overrides = useMemo(() => Object.fromEntries(hidden.map((f) => [f, { hidden: true }])), [hidden]);
  const mode = id ? 'update' : 'create';
  const shown = useMemo(() => new Set(formFields(decl, mode).map(([f]) => f)), [decl, mode]);
  const mutationOptions = {
    onSuccess: (data: Row) => {
      notify(savedToast(titleOf(decl, data)), { type: 'success' });
      onSaved(data);
    },
    onError: (error: unknown) => {
      // field errors show under their inputs; anything else as a toast
      const fields = ((error as HttpError | undefined)?.body as { errors?: Record<string, string> } | undefined)?.errors ?? {};
      if (Object.keys(fields).some((f) => shown.has(f))) return;
      notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
    },
  };
  const titleId = `ce-dialog-${decl.name}`;
  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent sx={{ px: { xs: 0, sm: 1 }, pb: 0 }}>
        {id ? (
          <EditBase resource={decl.name} id={id} mutationMode="pessimistic" redirect={false} transform={(v: Row) => bodyFor(decl, 'update', v)} mutationOptions={mutationOptions}>
            <EditForm decl={decl} overrides={overrides} onCancel={onClose} />
          </EditBase>
        ) : (
          <CreateBase
            resource={decl.name}
            record={defaults}
            redirect={false}
            transform={(v: Row) => bodyFor(decl, 'create', { ...v, ...defaults })}
            mutationOptions={mutationOptions}
          >
            <GeneratedForm decl={decl} mode="create" canSave canDelete={false} overrides={overrides} onCancel={onClose} staticToolbar maxWidth="none" />
          </CreateBase>
        )}
      </DialogContent>
    </Dialog>
  );
}
