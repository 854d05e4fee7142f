import { useContext, type ReactNode } from 'react';
import { Edit, TopToolbar, useRecordContext } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedForm, type GeneratedFormProps } from './GeneratedForm';
import { bodyFor, titleOf } from './rules';
import { useSaveHandlers } from './save';
import { useResourceAccess } from './access';
import { HistoryPanel } from '../history/HistoryPanel';
import { ConsoleContext } from '../console/ConsoleContext';
import { accountPath, accountUrl } from '../providers/accountPath';
import { CurlButton, useCanCopyCurl, useConsoleAccountId } from './listTools';

/** The record's history below its form, for a resource that declares it (an account's, or the entry admin's). */
function RecordHistory({ decl, canRevert }: { decl: ResourceDeclaration; canRevert: boolean }) {
  const record = useRecordContext();
  const console = useContext(ConsoleContext);
  if (!record || !decl.history) return null;
  const segment = decl.path ?? decl.name;
  const id = String(record.id);
  const path = decl.tenancy === 'account' && console ? accountPath(console.accountId, segment, id) : `/${segment}/${encodeURIComponent(id)}`;
  return <HistoryPanel decl={decl} path={path} canRevert={canRevert} />;
}

function RecordTitle({ decl }: { decl: ResourceDeclaration }) {
  const record = useRecordContext();
  return <>{record ? titleOf(decl, record) : ''}</>;
}

type Row = Record<string, unknown>;

/** "Copy as cURL" of the record's GET (a singleton's: the resource path itself), with app_general export_curl. */
function RecordCurlButton({ decl }: { decl: ResourceDeclaration }) {
  const accountId = useConsoleAccountId();
  const record = useRecordContext();
  if (!accountId || !record) return null;
  const path = decl.singleton ? accountUrl(accountId, decl.name) : accountUrl(accountId, decl.name, String(record.id));
  return (
    <TopToolbar>
      <CurlButton url={() => `${window.location.origin}${path}`} />
    </TopToolbar>
  );
}

/** What a hand-written edit screen changes about the generated form, possibly by the stored record. */
export type EditFormOptions = Partial<Omit<GeneratedFormProps, 'decl' | 'mode'>>;

export interface GeneratedEditProps {
  decl: ResourceDeclaration;
  /** The record's id (default: the route's :id); a singleton's is its account's. */
  id?: string;
  /** Where cancel goes (default: the list); a singleton has none. */
  backTo?: string;
  title?: ReactNode;
  /** Changes to the form (overrides, extra buttons, content below the fields), from the stored record. */
  form?: EditFormOptions | ((record: Row) => EditFormOptions);
  /** Stay on the form after saving (default: back to the list, except a singleton). */
  stay?: boolean;
}

function EditForm({ decl, backTo, form, canUpdate, canDelete }: Pick<GeneratedEditProps, 'decl' | 'backTo' | 'form'> & { canUpdate: boolean; canDelete: boolean }) {
  const record = useRecordContext();
  if (!record) return null;
  const options = typeof form === 'function' ? form(record as Row) : (form ?? {});
  return (
    <GeneratedForm
      decl={decl}
      mode="update"
      backTo={backTo}
      {...options}
      canSave={canUpdate && options.canSave !== false}
      canDelete={canDelete && !decl.singleton && options.canDelete !== false}
    />
  );
}

/**
 * The edit screen of a declaration: the generated form with the update schema; save with the update bit, delete
 * (confirmed) with the delete bit; both return to the list. A singleton (settings) stays on its form after saving.
 * A hand-written screen passes `form` to change fields or add to the form; it can take save and delete away, never
 * give them beyond the caller's bits.
 */
export function GeneratedEdit({ decl, id, backTo, title, form, stay }: GeneratedEditProps) {
  const { canUpdate, canDelete } = useResourceAccess(decl.name);
  const handlers = useSaveHandlers(decl, 'update', { stay: stay ?? !!decl.singleton });
  const canCurl = useCanCopyCurl();
  return (
    <Edit
      actions={canCurl ? <RecordCurlButton decl={decl} /> : undefined}
      resource={decl.name}
      id={id}
      title={title ?? <RecordTitle decl={decl} />}
      mutationMode="pessimistic"
      transform={(values: Record<string, unknown>) => bodyFor(decl, 'update', values)}
      mutationOptions={handlers}
    >
      <EditForm decl={decl} backTo={backTo} form={form} canUpdate={canUpdate} canDelete={canDelete} />
      <RecordHistory decl={decl} canRevert={canUpdate} />
    </Edit>
  );
}

export default GeneratedEdit;
