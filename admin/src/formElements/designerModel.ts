import { ELEMENT_TYPES, isListType, type ElementType, type FormElementSpec, type ListItemNode } from '../../../resources/answers';
import { IDENTIFIER_RE } from '../../../resources/define';
import { DAYS_LIMIT, formElements, MAX_LENGTH_RANGE, SLIDER_DEFAULTS, sliderRangeFits, sliderStepFits } from '../../../resources/formElements';

/**
 * The form designer without React: an element as the editor holds it (a draft: what was typed, kept as typed until it
 * is saved), what the API gets from it, what the preview draws from it, and its checks (the declaration's zod schema
 * and `check`, resources/formElements.ts). Error values are message keys (resources/messages.ts, admin i18n).
 */

export { ELEMENT_TYPES, isListType, type ElementType };

/** A stored element as the API answers it (form-elements, or an element of GET /forms/{id}/graph). */
export interface ElementRecord {
  fe_id: string;
  fe_formid: string;
  fe_title: string;
  fe_name: string;
  fe_external_name: string | null;
  fe_type: ElementType;
  fe_listid: string | null;
  fe_order?: number;
  fe_is_required: boolean;
  fe_options: Record<string, unknown> | null;
  items?: ListItemNode[];
  [other: string]: unknown;
}

export interface ListRecord {
  l_id: string;
  l_title: string;
  l_name: string;
}

/** The type-specific options as typed: numbers stay text until saved, so nothing typed is lost or rewritten. */
export interface OptionDraft {
  min: string;
  max: string;
  step: string;
  max_length: string;
  default: boolean;
  days: string[];
  disabled: string[];
}

/** The editable fields of an element. */
export interface DraftFields {
  title: string;
  name: string;
  external: string;
  type: ElementType;
  required: boolean;
  listId: string;
  options: OptionDraft;
}

export interface Draft extends DraftFields {
  /** Stable for the life of the designer: the element id once stored, `new-N` before. */
  key: string;
  /** fe_id once stored. */
  id: string | null;
  /** The last stored version (what "discard" goes back to and what "unsaved" compares with). */
  stored: ElementRecord | null;
  /** A new element's data name follows its title until the name is edited. */
  nameTouched: boolean;
  /** Field → message key (ERROR_FIELDS); `_form` holds an already translated text of a failure without a field. */
  errors: Record<string, string>;
  saving: boolean;
}

/** Where an error shows: the API's field names plus the option inputs. */
export type ErrorField =
  | 'fe_title'
  | 'fe_name'
  | 'fe_external_name'
  | 'fe_type'
  | 'fe_listid'
  | 'fe_is_required'
  | 'fe_options'
  | 'opt_min'
  | 'opt_max'
  | 'opt_step'
  | 'opt_max_length'
  | 'opt_days'
  | 'opt_disabled'
  | '_form';

/** The fields in screen order: the first failing one gets the focus. */
export const ERROR_ORDER: ErrorField[] = [
  'fe_title',
  'fe_name',
  'fe_external_name',
  'fe_type',
  'fe_is_required',
  'fe_listid',
  'opt_min',
  'opt_max',
  'opt_step',
  'opt_max_length',
  'opt_days',
  'opt_disabled',
  'fe_options',
  '_form',
];

export const EMPTY_OPTIONS: OptionDraft = { min: '', max: '', step: '', max_length: '', default: false, days: [], disabled: [] };

const numText = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const dates = (v: unknown) => (Array.isArray(v) ? [...new Set(v.filter((d): d is string => typeof d === 'string'))].sort() : []);

export function optionDraftOf(options: Record<string, unknown> | null | undefined): OptionDraft {
  const o = options && typeof options === 'object' ? options : {};
  return {
    min: numText(o.min),
    max: numText(o.max),
    step: numText(o.step),
    max_length: numText(o.max_length),
    default: o.default === true,
    days: dates(o.days),
    disabled: dates(o.disabled),
  };
}

export function fieldsOf(record: ElementRecord): DraftFields {
  return {
    title: record.fe_title ?? '',
    name: record.fe_name ?? '',
    external: record.fe_external_name ?? '',
    type: record.fe_type,
    required: Boolean(record.fe_is_required),
    listId: record.fe_listid ?? '',
    options: optionDraftOf(record.fe_options),
  };
}

export function draftOf(record: ElementRecord, key = record.fe_id): Draft {
  return { key, id: record.fe_id, stored: stripItems(record), nameTouched: true, errors: {}, saving: false, ...fieldsOf(record) };
}

/** The stored record without its list tree (the designer keeps trees per list, once). */
function stripItems(record: ElementRecord): ElementRecord {
  if (!('items' in record)) return record;
  const { items: _items, ...rest } = record;
  return rest as ElementRecord;
}

export function newDraft(key: string, type: ElementType, title: string, taken: Iterable<string>): Draft {
  return {
    key,
    id: null,
    stored: null,
    nameTouched: false,
    errors: {},
    saving: false,
    title,
    name: suggestName(title, taken),
    external: '',
    type,
    required: false,
    listId: '',
    options: { ...EMPTY_OPTIONS },
  };
}

const snapshot = (f: DraftFields) =>
  JSON.stringify([
    f.title,
    f.name,
    f.external,
    f.type,
    f.required,
    f.listId,
    f.options.min,
    f.options.max,
    f.options.step,
    f.options.max_length,
    f.options.default,
    f.options.days,
    f.options.disabled,
  ]);

const dirtyCache = new WeakMap<Draft, boolean>();
/** Typed but not stored (a new element always is). */
export function isDirty(draft: Draft): boolean {
  let dirty = dirtyCache.get(draft);
  if (dirty === undefined) {
    dirty = !draft.stored || snapshot(draft) !== snapshot(fieldsOf(draft.stored));
    dirtyCache.set(draft, dirty);
  }
  return dirty;
}

export const sameFields = (a: DraftFields, b: DraftFields) => snapshot(a) === snapshot(b);

// ---- data names

/**
 * A data name from a title: lower case without accents, other characters as `_`, starting with a letter, at most 63
 * characters, and not one of `taken` (then `_2`, `_3`, …). Empty for a title without letters or digits.
 */
export function suggestName(title: string, taken: Iterable<string> = []): string {
  let base = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
  if (!base) return '';
  if (!/^[a-z]/.test(base)) base = `f_${base}`;
  base = base.slice(0, 63).replace(/[_-]+$/, '');
  const used = new Set(taken);
  let name = base;
  for (let n = 2; used.has(name); n++) {
    const suffix = `_${n}`;
    name = base.slice(0, 63 - suffix.length) + suffix;
  }
  return name;
}

// ---- numbers as typed

/** '' → undefined; a number (a decimal comma is fine, as Dutch keyboards type it) → the number; else NaN. */
export function parseNumber(text: string): number | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : Number.NaN;
}

const usable = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);

/**
 * fe_options of a draft for its type. `strict`: what is saved (checked first by optionErrors); otherwise what the
 * preview draws, leaving out numbers that are still being typed.
 */
export function optionsOf(type: ElementType, o: OptionDraft): Record<string, unknown> | null {
  switch (type) {
    case 'slider': {
      const out: Record<string, unknown> = {};
      for (const key of ['min', 'max', 'step'] as const) {
        const n = parseNumber(o[key]);
        if (usable(n)) out[key] = n;
      }
      return Object.keys(out).length ? out : null;
    }
    case 'text':
    case 'textarea': {
      const n = parseNumber(o.max_length);
      return usable(n) ? { max_length: n } : null;
    }
    case 'toggle':
    case 'checkbox':
      return { default: o.default };
    case 'date_selector_days':
      return o.days.length || o.disabled.length ? { days: [...o.days].sort(), disabled: [...o.disabled].sort() } : null;
    default:
      return null;
  }
}

/**
 * The option inputs' own errors (a number that is not one, a range that does not fit), before the declaration's: the
 * declaration's rules (resources/formElements.ts), each with a message that names what is wrong with the input.
 */
export function optionErrors(type: ElementType, o: OptionDraft): Partial<Record<ErrorField, string>> {
  const errors: Partial<Record<ErrorField, string>> = {};
  if (type === 'slider') {
    const min = parseNumber(o.min);
    const max = parseNumber(o.max);
    const step = parseNumber(o.step);
    if (min !== undefined && !usable(min)) errors.opt_min = 'error_number_invalid';
    if (max !== undefined && !usable(max)) errors.opt_max = 'error_number_invalid';
    if (step !== undefined && !usable(step)) errors.opt_step = 'error_number_invalid';
    else if (step !== undefined && !sliderStepFits(step)) errors.opt_step = 'error_step_invalid';
    if (!errors.opt_min && !errors.opt_max && !sliderRangeFits(min ?? SLIDER_DEFAULTS.min, max ?? SLIDER_DEFAULTS.max)) errors.opt_max = 'error_slider_range';
  }
  if (type === 'text' || type === 'textarea') {
    const n = parseNumber(o.max_length);
    if (n !== undefined && !(usable(n) && Number.isInteger(n))) errors.opt_max_length = 'error_whole_number';
    else if (n !== undefined && n < MAX_LENGTH_RANGE.min) errors.opt_max_length = 'error_number_too_small';
    else if (n !== undefined && n > MAX_LENGTH_RANGE.max) errors.opt_max_length = 'error_number_too_large';
  }
  if (type === 'date_selector_days') {
    if (o.days.length > DAYS_LIMIT) errors.opt_days = 'error_too_many';
    if (o.disabled.length > DAYS_LIMIT) errors.opt_disabled = 'error_too_many';
  }
  return errors;
}

/** The body of a create (with fe_formid) or an update. */
export function bodyOf(draft: DraftFields, formId?: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    fe_title: draft.title,
    fe_name: draft.name.trim(),
    fe_external_name: draft.external.trim() || null,
    fe_type: draft.type,
    fe_listid: isListType(draft.type) ? draft.listId || null : null,
    fe_is_required: draft.required,
    fe_options: optionsOf(draft.type, draft.options),
  };
  if (formId !== undefined) body.fe_formid = formId;
  return body;
}

/**
 * Every error of a draft before it is sent: the option inputs, the declaration's zod schema (create or update) and its
 * `check` across fields, and a data name another element of this form already has. Empty = fine to send.
 */
export function validateDraft(draft: Draft, others: readonly Draft[], formId: string): Partial<Record<ErrorField, string>> {
  const errors: Partial<Record<ErrorField, string>> = optionErrors(draft.type, draft.options);
  const body = bodyOf(draft, draft.id ? undefined : formId);
  const schema = draft.id ? formElements.update : formElements.create;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '_form') as ErrorField;
      errors[field] ??= issue.message.startsWith('error_') ? issue.message : 'error_invalid_value';
    }
  }
  const checked = formElements.check?.(parsed.success ? { ...body, ...(parsed.data as Record<string, unknown>) } : body) ?? {};
  for (const [field, key] of Object.entries(checked)) errors[field as ErrorField] ??= key;
  // option inputs say it more precisely than the declaration's fe_options
  if (errors.fe_options && (errors.opt_min || errors.opt_max || errors.opt_step || errors.opt_max_length || errors.opt_days || errors.opt_disabled)) delete errors.fe_options;
  const name = draft.name.trim();
  if (!errors.fe_name && IDENTIFIER_RE.test(name) && others.some((o) => o.key !== draft.key && o.name.trim() === name)) errors.fe_name = 'error_name_taken';
  return errors;
}

/** Which errors an edit of these fields makes stale. */
export function clearedBy(patch: Partial<DraftFields>): ErrorField[] {
  const out: ErrorField[] = ['_form'];
  if ('title' in patch) out.push('fe_title');
  if ('name' in patch) out.push('fe_name');
  if ('external' in patch) out.push('fe_external_name');
  if ('type' in patch) out.push('fe_type', 'fe_listid', 'fe_options', 'fe_name', 'opt_min', 'opt_max', 'opt_step', 'opt_max_length', 'opt_days', 'opt_disabled');
  if ('required' in patch) out.push('fe_is_required');
  if ('listId' in patch) out.push('fe_listid');
  return out;
}

export function optionErrorsCleared(key: keyof OptionDraft): ErrorField[] {
  const field: Record<keyof OptionDraft, ErrorField> = {
    min: 'opt_min',
    max: 'opt_max',
    step: 'opt_step',
    max_length: 'opt_max_length',
    default: 'fe_options',
    days: 'opt_days',
    disabled: 'opt_disabled',
  };
  // min and max are checked together
  return key === 'min' || key === 'max' ? ['_form', 'fe_options', 'opt_min', 'opt_max'] : ['_form', 'fe_options', field[key]];
}

// ---- the preview

export interface PreviewSpec extends FormElementSpec {
  fe_id: string;
}

const specCache = new WeakMap<Draft, { items: ListItemNode[] | undefined; spec: PreviewSpec }>();

/**
 * What the renderer draws for a draft, as it is now (saved or not). One object per draft and list tree, so an
 * element the user is not editing keeps its spec and the renderer's memoised element skips it.
 */
export function specOf(draft: Draft, items: ListItemNode[] | undefined): PreviewSpec {
  const listItems = isListType(draft.type) ? items : undefined;
  const cached = specCache.get(draft);
  if (cached && cached.items === listItems) return cached.spec;
  const spec: PreviewSpec = {
    fe_id: draft.key,
    fe_name: draft.name.trim() || `_${draft.key}`,
    fe_title: draft.title,
    fe_type: draft.type,
    fe_is_required: draft.required,
    fe_options: optionsOf(draft.type, draft.options),
    fe_listid: isListType(draft.type) ? draft.listId || null : null,
    ...(isListType(draft.type) ? { items: listItems ?? [] } : {}),
  };
  specCache.set(draft, { items: listItems, spec });
  return spec;
}

// ---- lists

export function countItems(items: readonly ListItemNode[] | undefined): number {
  let n = 0;
  const walk = (nodes: readonly ListItemNode[]) => {
    for (const node of nodes) {
      n += 1;
      if (node.children?.length) walk(node.children);
    }
  };
  if (items) walk(items);
  return n;
}

// ---- order

/** `keys` with the one at `from` moved to `to`. */
export function moved<T>(keys: readonly T[], from: number, to: number): T[] {
  const out = [...keys];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/** The ids the order route gets: the stored elements in the order shown (new ones are not stored yet). */
export function storedIds(drafts: readonly Draft[]): string[] {
  return drafts.map((d) => d.id).filter((id): id is string => Boolean(id));
}
