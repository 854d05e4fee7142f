import { lazy, memo, Suspense, useEffect, useId, useMemo, useRef, type ComponentProps, type FormEvent, type KeyboardEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import type { ListItemNode } from '../../../resources/answers';
import { DaysEditor } from './DaysEditor';
import { countItems, ELEMENT_TYPES, ERROR_ORDER, isDirty, isListType, type Draft, type DraftFields, type ErrorField, type ListRecord, type OptionDraft } from './designerModel';
import type { T } from './ElementList';
import { TYPE_ICONS } from './typeIcons';

export interface ElementEditorProps {
  draft: Draft;
  lists: readonly ListRecord[] | null;
  /** The chosen list's tree once loaded (undefined while it loads). */
  items: ListItemNode[] | undefined;
  canEdit: boolean;
  /** Changes when the editor should put the focus somewhere: the first error after a failed save, or the title of a new element. */
  focus: { key: string; n: number; target: 'error' | 'title' } | null;
  locale: string;
  t: T;
  translate: T;
  onEdit: (key: string, patch: Partial<DraftFields>) => void;
  onOption: <K extends keyof OptionDraft>(key: string, option: K, value: OptionDraft[K]) => void;
  onSave: (key: string) => void;
  onDiscard: (key: string) => void;
  onDelete: (key: string) => void;
}

/** What each error field's input is called in the DOM (for the focus after a failed save). */
const INPUT_OF: Record<ErrorField, string> = {
  fe_title: 'title',
  fe_name: 'name',
  fe_external_name: 'external',
  fe_type: 'type',
  fe_is_required: 'required',
  fe_listid: 'list',
  fe_options: 'options',
  opt_min: 'min',
  opt_max: 'max',
  opt_step: 'step',
  opt_max_length: 'max_length',
  opt_days: 'days',
  opt_disabled: 'disabled',
  _form: 'save',
};

/**
 * One element's editor: title, data name (suggested from the title for a new element), external name, type,
 * required, list (list types only) and the type's options. Saved with its Save button (or Ctrl+S); what is typed stays
 * in the draft when a save fails, with the errors on the fields.
 */
export const ElementEditor = memo(function ElementEditor(props: ElementEditorProps) {
  const { draft, lists, items, canEdit, focus, locale, t, translate, onEdit, onOption, onSave, onDiscard, onDelete } = props;
  const base = `fd${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const idOf = (input: string) => `${base}-${input}`;
  const rootRef = useRef<HTMLFormElement>(null);
  const key = draft.key;
  const errors = draft.errors as Partial<Record<ErrorField, string>>;
  const err = (field: ErrorField) => (errors[field] ? translate(errors[field]!, { _: errors[field] }) : undefined);

  useEffect(() => {
    if (!focus || focus.key !== key || !rootRef.current) return;
    let input = 'title';
    if (focus.target === 'error') {
      const first = ERROR_ORDER.find((f) => errors[f]);
      if (!first) return;
      input = INPUT_OF[first];
    }
    const el = rootRef.current.querySelector<HTMLElement>(`#${idOf(input)}`) ?? rootRef.current.querySelector<HTMLElement>(`[data-focus="${input}"]`);
    el?.focus();
    if (focus.target === 'title' && el instanceof HTMLInputElement) el.select();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus]);

  const itemCount = useMemo(() => (items ? countItems(items) : undefined), [items]);
  const list = lists?.find((l) => l.l_id === draft.listId) ?? null;
  const listOptions = useMemo(() => {
    const known = lists ?? [];
    // a stored list id that is not offered (e.g. the lists could not be read) still shows
    return draft.listId && !known.some((l) => l.l_id === draft.listId) ? [...known, { l_id: draft.listId, l_title: draft.listId, l_name: '' }] : known;
  }, [lists, draft.listId]);

  if (!canEdit) return <ReadOnlyElement draft={draft} list={list} itemCount={itemCount} t={t} translate={translate} />;

  const dirty = isDirty(draft);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(key);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      onSave(key);
    }
  };
  const nameHelp = draft.id || draft.nameTouched ? t('fields.name_help') : `${t('fields.name_help')} ${t('fields.name_suggested')}`;
  const listHelp = draft.listId
    ? itemCount === undefined
      ? t('fields.list_loading')
      : t('fields.list_items', { count: itemCount, smart_count: itemCount })
    : t('fields.list_help');

  // Each input is its own memoised component: a keystroke redraws the input typed in (and the heading), not the form.
  return (
    <form ref={rootRef} className="fd-editor" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-labelledby={idOf('heading')}>
      <h3 id={idOf('heading')} className="fd-editor-heading">
        {draft.title.trim() || t('unnamed')}
      </h3>
      <TextInput id={idOf('title')} draftKey={key} field="title" value={draft.title} label={t('fields.title')} error={err('fe_title')} required onEdit={onEdit} />
      <TextInput id={idOf('name')} draftKey={key} field="name" value={draft.name} label={t('fields.name')} help={nameHelp} error={err('fe_name')} required onEdit={onEdit} />
      <TextInput
        id={idOf('external')}
        draftKey={key}
        field="external"
        value={draft.external}
        label={t('fields.external')}
        help={t('fields.external_help')}
        error={err('fe_external_name')}
        onEdit={onEdit}
      />
      <TypeSelect id={idOf('type')} draftKey={key} value={draft.type} error={err('fe_type')} t={t} onEdit={onEdit} />
      <RequiredBox id={idOf('required')} draftKey={key} checked={draft.required} label={t('fields.required')} onEdit={onEdit} />
      {isListType(draft.type) ? (
        <ListPicker
          id={idOf('list')}
          draftKey={key}
          lists={listOptions}
          loading={lists === null}
          listId={draft.listId}
          error={err('fe_listid')}
          help={listHelp}
          t={t}
          onEdit={onEdit}
        />
      ) : null}
      <OptionsSection
        base={base}
        draftKey={key}
        type={draft.type}
        options={draft.options}
        errors={{
          min: err('opt_min'),
          max: err('opt_max'),
          step: err('opt_step'),
          max_length: err('opt_max_length'),
          days: err('opt_days'),
          disabled: err('opt_disabled'),
          options: err('fe_options'),
        }}
        locale={locale}
        t={t}
        translate={translate}
        onOption={onOption}
      />
      {errors._form ? (
        <Alert severity="error" role="alert">
          {errors._form}
        </Alert>
      ) : null}
      <EditorActions
        id={idOf('save')}
        draftKey={key}
        saving={draft.saving}
        dirty={dirty}
        stored={Boolean(draft.id)}
        failed={Boolean(errors._form)}
        t={t}
        onDiscard={onDiscard}
        onDelete={onDelete}
      />
    </form>
  );
});

export type OnEdit = ElementEditorProps['onEdit'];

const EditorActions = memo(function EditorActions({
  id,
  draftKey,
  saving,
  dirty,
  stored,
  failed,
  t,
  onDiscard,
  onDelete,
}: {
  id: string;
  draftKey: string;
  saving: boolean;
  dirty: boolean;
  stored: boolean;
  failed: boolean;
  t: T;
  onDiscard: (key: string) => void;
  onDelete: (key: string) => void;
}) {
  return (
    <div className="fd-editor-actions">
      <Button id={id} type="submit" variant="contained" disabled={saving || (!dirty && !failed)}>
        {saving ? t('saving') : t('save')}
      </Button>
      {stored && dirty ? (
        <Button type="button" onClick={() => onDiscard(draftKey)} disabled={saving}>
          {t('discard')}
        </Button>
      ) : null}
      <span className="fd-editor-status" aria-hidden="true">
        {saving ? '' : dirty ? t(stored ? 'unsaved' : 'new') : t('saved')}
      </span>
      <Button type="button" color="error" onClick={() => onDelete(draftKey)} disabled={saving} className="fd-editor-delete">
        {t('delete')}
      </Button>
    </div>
  );
});

const TextInput = memo(function TextInput({
  id,
  draftKey,
  field,
  value,
  label,
  help,
  error,
  required = false,
  onEdit,
}: {
  id: string;
  draftKey: string;
  field: 'title' | 'name' | 'external';
  value: string;
  label: string;
  help?: string;
  error?: string;
  required?: boolean;
  onEdit: OnEdit;
}) {
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      required={required}
      fullWidth
      size="small"
      onChange={(e) => onEdit(draftKey, { [field]: e.target.value })}
      error={Boolean(error)}
      helperText={error ?? help}
      slotProps={{ htmlInput: field === 'name' ? { spellCheck: false, autoCapitalize: 'off', autoComplete: 'off' } : { autoComplete: 'off' } }}
    />
  );
});

const TypeSelect = memo(function TypeSelect({
  id,
  draftKey,
  value,
  error,
  t,
  onEdit,
}: {
  id: string;
  draftKey: string;
  value: Draft['type'];
  error?: string;
  t: T;
  onEdit: OnEdit;
}) {
  return (
    <TextField
      id={id}
      select
      label={t('fields.type')}
      value={value}
      required
      fullWidth
      size="small"
      onChange={(e) => onEdit(draftKey, { type: e.target.value as Draft['type'] })}
      error={Boolean(error)}
      helperText={error}
    >
      {ELEMENT_TYPES.map((type) => {
        const Icon = TYPE_ICONS[type];
        return (
          <MenuItem key={type} value={type}>
            <Icon fontSize="small" className="fd-menu-icon" aria-hidden="true" />
            {t(`types.${type}`)}
          </MenuItem>
        );
      })}
    </TextField>
  );
});

// The list picker of a list-type element (MUI's Autocomplete, about 10 KiB gzipped) loads when such an element is
// edited: a form without one never needs it.
const LazyListPicker = lazy(() => import('./ListPicker'));

function ListPicker(props: ComponentProps<typeof LazyListPicker>) {
  return (
    <Suspense fallback={<TextField id={props.id} label={props.t('fields.list')} required size="small" disabled helperText={props.help} />}>
      <LazyListPicker {...props} />
    </Suspense>
  );
}

const RequiredBox = memo(function RequiredBox({ id, draftKey, checked, label, onEdit }: { id: string; draftKey: string; checked: boolean; label: string; onEdit: OnEdit }) {
  return <FormControlLabel control={<Checkbox id={id} checked={checked} onChange={(e) => onEdit(draftKey, { required: e.target.checked })} />} label={label} />;
});

type OptionErrors = Partial<Record<'min' | 'max' | 'step' | 'max_length' | 'days' | 'disabled' | 'options', string>>;

const NumberInput = memo(function NumberInput({
  id,
  draftKey,
  option,
  value,
  label,
  help,
  error,
  onOption,
}: {
  id: string;
  draftKey: string;
  option: 'min' | 'max' | 'step' | 'max_length';
  value: string;
  label: string;
  help?: string;
  error?: string;
  onOption: ElementEditorProps['onOption'];
}) {
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      size="small"
      onChange={(e) => onOption(draftKey, option, e.target.value)}
      error={Boolean(error)}
      helperText={error ?? help}
      slotProps={{ htmlInput: { inputMode: option === 'max_length' ? 'numeric' : 'decimal', autoComplete: 'off' } }}
    />
  );
});

/** The type's options; errors come in as translated texts, so the section redraws only when they change. */
const OptionsSection = memo(
  function OptionsSection({
    base,
    draftKey,
    type,
    options,
    errors,
    locale,
    t,
    translate,
    onOption,
  }: {
    base: string;
    draftKey: string;
    type: Draft['type'];
    options: OptionDraft;
    errors: OptionErrors;
    locale: string;
    t: T;
    translate: T;
    onOption: ElementEditorProps['onOption'];
  }) {
    const idOf = (input: string) => `${base}-${input}`;
    const number = (option: 'min' | 'max' | 'step' | 'max_length', label: string, help?: string) => (
      <NumberInput id={idOf(option)} draftKey={draftKey} option={option} value={options[option]} label={label} help={help} error={errors[option]} onOption={onOption} />
    );
    return (
      <fieldset className="fd-options" data-focus="options" tabIndex={-1} aria-describedby={errors.options ? idOf('options-error') : undefined}>
        <legend className="fd-options-legend">{t('options.title')}</legend>
        {type === 'slider' ? (
          <>
            <div className="fd-option-row">
              {number('min', t('options.min'))}
              {number('max', t('options.max'))}
              {number('step', t('options.step'))}
            </div>
            <FormHelperText>{t('options.slider_help')}</FormHelperText>
          </>
        ) : type === 'text' || type === 'textarea' ? (
          number('max_length', t('options.max_length'), t('options.max_length_help'))
        ) : type === 'toggle' || type === 'checkbox' ? (
          <FormControlLabel
            control={<Switch id={idOf('default')} checked={options.default} onChange={(e) => onOption(draftKey, 'default', e.target.checked)} />}
            label={t('options.default')}
          />
        ) : type === 'date_selector_days' ? (
          <>
            <DaysEditor
              id={idOf('days')}
              label={t('options.days')}
              days={options.days}
              onChange={(days) => onOption(draftKey, 'days', days)}
              error={errors.days}
              locale={locale}
              t={t}
              translateError={(k) => translate(k)}
            />
            <DaysEditor
              id={idOf('disabled')}
              label={t('options.disabled')}
              days={options.disabled}
              onChange={(days) => onOption(draftKey, 'disabled', days)}
              error={errors.disabled}
              locale={locale}
              t={t}
              translateError={(k) => translate(k)}
            />
          </>
        ) : (
          <p className="fd-muted">{t('options.none')}</p>
        )}
        {errors.options ? (
          <p id={idOf('options-error')} className="fd-field-error" role="alert">
            {errors.options}
          </p>
        ) : null}
      </fieldset>
    );
  },
  (a, b) =>
    a.base === b.base &&
    a.draftKey === b.draftKey &&
    a.type === b.type &&
    a.options === b.options &&
    a.locale === b.locale &&
    a.t === b.t &&
    a.translate === b.translate &&
    a.onOption === b.onOption &&
    (Object.keys({ ...a.errors, ...b.errors }) as (keyof OptionErrors)[]).every((k) => a.errors[k] === b.errors[k]),
);

/** Read-only view (canEdit false): the element's settings as text. */
function ReadOnlyElement({ draft, list, itemCount, t, translate }: { draft: Draft; list: ListRecord | null; itemCount: number | undefined; t: T; translate: T }) {
  const o = draft.options;
  const yesNo = (v: boolean) => translate(v ? 'ls.common.yes' : 'ls.common.no');
  const rows: [string, string][] = [
    [t('fields.title'), draft.title],
    [t('fields.name'), draft.name],
    [t('fields.external'), draft.external || draft.name],
    [t('fields.type'), t(`types.${draft.type}`)],
    [t('fields.required'), yesNo(draft.required)],
  ];
  if (isListType(draft.type))
    rows.push([t('fields.list'), `${list?.l_title ?? draft.listId}${itemCount !== undefined ? ` (${t('fields.list_items', { count: itemCount, smart_count: itemCount })})` : ''}`]);
  if (draft.type === 'slider') rows.push([t('options.min'), o.min || '0'], [t('options.max'), o.max || '100'], [t('options.step'), o.step || '1']);
  if ((draft.type === 'text' || draft.type === 'textarea') && o.max_length) rows.push([t('options.max_length'), o.max_length]);
  if (draft.type === 'toggle' || draft.type === 'checkbox') rows.push([t('options.default'), yesNo(o.default)]);
  if (draft.type === 'date_selector_days') rows.push([t('options.days'), o.days.join(', ') || '—'], [t('options.disabled'), o.disabled.join(', ') || '—']);
  return (
    <div className="fd-editor">
      <h3 className="fd-editor-heading">{draft.title.trim() || t('unnamed')}</h3>
      <dl className="fd-readonly">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
