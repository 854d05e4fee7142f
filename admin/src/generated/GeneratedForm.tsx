import { useCallback, useMemo, type ComponentType, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { DeleteWithConfirmButton, FieldTitle, LinkBase, SaveButton, SimpleForm, Toolbar, useCreatePath, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldMeta, ResourceDeclaration } from '../../../resources/types';
import { kindOf, type FieldInputProps } from './kinds';
import type { CellProps } from './cells';
import { createDefaults, formFields, isReadOnlyIn, isShown, titleOf, validateRecord, type FormMode } from './rules';

/** What a hand-written screen changes about one generated field (the rest still comes from the declaration). */
export interface FieldOverride {
  /** Not shown (and so not sent). */
  hidden?: boolean;
  /** Shown but not editable (e.g. a role without set_role). */
  disabled?: boolean;
  /** Metadata changed for this screen (e.g. fewer enum options). */
  meta?: Partial<FieldMeta>;
  /** Another input in its place (e.g. the unlinked-user picker). */
  Input?: ComponentType<FieldInputProps>;
  /** Another way to show it where it is read-only (e.g. an invite's status as a coloured chip). */
  Cell?: ComponentType<CellProps>;
  helperText?: ReactNode;
}

export interface GeneratedFormProps {
  decl: ResourceDeclaration;
  mode: FormMode;
  /** Save is offered (create, or update on an existing record). */
  canSave: boolean;
  /** Delete is offered (an existing record and the delete bit). */
  canDelete: boolean;
  /** Where cancel and delete go (default: the resource's list). */
  backTo?: string;
  /** Per-field changes of a hand-written screen. */
  overrides?: Record<string, FieldOverride>;
  /** Above the fields (a notice). */
  intro?: ReactNode;
  /** Inside the form below the fields (sees the form's values). */
  children?: ReactNode;
  /** Inside the form beside the fields from 1200 px, below them on narrower screens (e.g. a mail template's preview). */
  aside?: ReactNode;
  /** More toolbar buttons, after cancel. */
  toolbarExtra?: ReactNode;
  /** Cancel calls this instead of going back (a form in a dialog). */
  onCancel?: () => void;
  /** The delete button's label and its confirmation (default: react-admin's delete texts). */
  deleteLabel?: string;
  deleteConfirmTitle?: string;
  deleteConfirmContent?: ReactNode;
  /** Passed to the delete's dataProvider call as meta (e.g. { query: 'force=1' }: an asset used by carousels). */
  deleteMeta?: Record<string, unknown>;
  /** The toast after deleting (default: react-admin's). */
  deleteSuccessMessage?: string;
  /** The form's widest width (default 960 px). */
  maxWidth?: number | string;
  /**
   * The buttons stay below the fields on a phone too (react-admin pins them to the bottom of the screen there), for a
   * page with more below the form (a form's designer, a list's items).
   */
  staticToolbar?: boolean;
}

/** The list path of the current resource under the current basename (/console/{a}/events). */
export function useListPath(resource: string): string {
  return useCreatePath()({ type: 'list', resource });
}

/** A field shown as text: read-only ones, and create-only ones of an existing record. */
function ReadOnlyField({ decl, source, meta, Cell = kindOf(meta).Cell }: { decl: ResourceDeclaration; source: string; meta: FieldMeta; Cell?: ComponentType<CellProps> }) {
  const record = useRecordContext();
  return (
    <Box sx={{ mb: 2, minWidth: 0 }} data-testid={`readonly-${source}`}>
      <Typography variant="caption" color="text.secondary" component="div">
        <FieldTitle label={meta.label} source={source} resource={decl.name} />
      </Typography>
      <Typography variant="body1" component="div" sx={{ wordBreak: 'break-word' }}>
        {record ? <Cell record={record} source={source} meta={meta} decl={decl} /> : null}
      </Typography>
    </Box>
  );
}

/** Shows its field only while the other field has one of the values of `showWhen`. */
function WhenShown({ meta, children }: { meta: FieldMeta; children: React.ReactNode }) {
  const other = useWatch({ name: meta.showWhen!.field });
  return isShown(meta, { [meta.showWhen!.field]: other }) ? <>{children}</> : null;
}

function GeneratedField({
  decl,
  source,
  meta,
  mode,
  disabled,
  override,
}: {
  decl: ResourceDeclaration;
  source: string;
  meta: FieldMeta;
  mode: FormMode;
  disabled: boolean;
  override?: FieldOverride;
}) {
  const kind = kindOf(meta);
  const Input = override?.Input ?? kind.Input;
  const field = isReadOnlyIn(meta, mode) ? (
    <ReadOnlyField decl={decl} source={source} meta={meta} Cell={override?.Cell} />
  ) : (
    <Input source={source} meta={meta} decl={decl} mode={mode} label={meta.label} disabled={disabled || !!override?.disabled} helperText={override?.helperText} />
  );
  const cell = <Box sx={{ gridColumn: kind.wide ? '1 / -1' : undefined, minWidth: 0 }}>{field}</Box>;
  return meta.showWhen ? <WhenShown meta={meta}>{cell}</WhenShown> : cell;
}

function GeneratedToolbar({
  decl,
  canSave,
  canDelete,
  backTo,
  toolbarExtra,
  onCancel,
  deleteLabel,
  deleteConfirmTitle,
  deleteConfirmContent,
  deleteMeta,
  deleteSuccessMessage,
  staticToolbar,
}: Omit<GeneratedFormProps, 'mode'>) {
  const translate = useTranslate();
  const record = useRecordContext();
  const resource = useResourceContext() ?? decl.name;
  const listPath = useListPath(resource);
  const back = backTo ?? listPath;
  return (
    <Toolbar sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ...(staticToolbar ? { '&.RaToolbar-mobileToolbar': { position: 'static' } } : {}) }}>
      {canSave && <SaveButton alwaysEnable />}
      {onCancel ? (
        <Button onClick={onCancel} data-testid="cancel">
          {translate('ra.action.cancel')}
        </Button>
      ) : (
        <Button component={LinkBase} to={back} data-testid="cancel">
          {/* Nothing to cancel on a form that cannot be saved: it only goes back. */}
          {canSave ? translate('ra.action.cancel') : translate('ls.generated.back', { _: 'Back' })}
        </Button>
      )}
      {toolbarExtra}
      <Box sx={{ flex: 1 }} />
      {canDelete && record?.id !== undefined && (
        <DeleteWithConfirmButton
          mutationMode="pessimistic"
          mutationOptions={deleteMeta ? { meta: deleteMeta } : undefined}
          redirect="list"
          label={deleteLabel}
          successMessage={deleteSuccessMessage}
          // A trash resource's delete can be undone: the confirmation says where the record goes.
          confirmContent={deleteConfirmContent ?? (decl.trash ? translate('ls.trash.delete_text') : undefined)}
          confirmTitle={deleteConfirmTitle ?? 'ra.message.delete_title'}
          translateOptions={{ name: translate(`resources.${decl.name}.name`, { smart_count: 1, _: decl.name }), recordRepresentation: titleOf(decl, record) }}
        />
      )}
    </Toolbar>
  );
}

/**
 * A form generated from a declaration: one input per field by its kind (kinds.tsx), `showWhen` fields only while
 * they apply, read-only fields as text, validation by the declaration's own zod schema (create or update) and its
 * rule across fields, errors under the inputs (server field errors too), save / cancel / delete (with confirmation).
 */
export function GeneratedForm({ decl, mode, canSave, canDelete, backTo, overrides, intro, children, aside, maxWidth = 960, staticToolbar, ...toolbar }: GeneratedFormProps) {
  const record = useRecordContext();
  const fields = useMemo(
    () =>
      formFields(decl, mode)
        .filter(([source]) => !overrides?.[source]?.hidden)
        .map(([source, meta]): [string, FieldMeta] => [source, overrides?.[source]?.meta ? { ...meta, ...overrides[source].meta } : meta]),
    [decl, mode, overrides],
  );
  const validate = useCallback((values: Record<string, unknown>) => validateRecord(decl, mode, values, record as Record<string, unknown> | undefined), [decl, mode, record]);
  const defaults = useMemo(() => (mode === 'create' ? createDefaults(decl) : undefined), [decl, mode]);
  return (
    <SimpleForm
      // The declaration's rules (message keys) validate; the browser's own checks would pre-empt them.
      noValidate
      validate={validate}
      defaultValues={defaults}
      toolbar={<GeneratedToolbar decl={decl} canSave={canSave} canDelete={canDelete} backTo={backTo} staticToolbar={staticToolbar} {...toolbar} />}
      sx={staticToolbar ? { maxWidth, pb: { xs: 2 } } : { maxWidth }}
    >
      {intro}
      {aside ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }, columnGap: 3, width: '100%', alignItems: 'start' }}>
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', lg: 'minmax(0, 1fr)' },
              columnGap: 2,
              minWidth: 0,
              alignItems: 'start',
            }}
          >
            {fields.map(([source, meta]) => (
              <GeneratedField key={source} decl={decl} source={source} meta={meta} mode={mode} disabled={!canSave} override={overrides?.[source]} />
            ))}
          </Box>
          <Box sx={{ minWidth: 0 }}>{aside}</Box>
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2, width: '100%', alignItems: 'start' }}>
          {fields.map(([source, meta]) => (
            <GeneratedField key={source} decl={decl} source={source} meta={meta} mode={mode} disabled={!canSave} override={overrides?.[source]} />
          ))}
        </Box>
      )}
      {children}
    </SimpleForm>
  );
}
