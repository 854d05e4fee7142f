import { isEmail } from './checks.js';

/**
 * Form elements and their answers, headless: the API checks a lead's answers with `validateAnswers` (400
 * lead_incomplete), and the form renderer (admin/src/renderer) draws the same elements. Contract: account-console.md
 * section 3, form-elements and lists/list-items; spec 9 (slider 0..100 by default, week starts on Monday).
 */

/** The element types of the contract, in its order. */
export const ELEMENT_TYPES = [
  'text',
  'textarea',
  'date_selector_days',
  'choice_chips_single',
  'choice_chips_multiple',
  'checkbox',
  'checkbox_tree',
  'radio_tree',
  'selectbox',
  'toggle',
  'slider',
  'picker',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** Types that need a list (fe_listid): the chips, the trees, the selectbox and the picker. */
export const LIST_TYPES = ['choice_chips_single', 'choice_chips_multiple', 'checkbox_tree', 'radio_tree', 'selectbox', 'picker'] as const satisfies readonly ElementType[];
export type ListElementType = (typeof LIST_TYPES)[number];

export function isElementType(value: unknown): value is ElementType {
  return typeof value === 'string' && (ELEMENT_TYPES as readonly string[]).includes(value);
}
export function isListType(type: string): type is ListElementType {
  return (LIST_TYPES as readonly string[]).includes(type);
}

/** A list item with its subtree (the register API sends every element's list as such a tree). */
export interface ListItemNode {
  li_id: string;
  li_title: string;
  li_value: string;
  children: ListItemNode[];
}

export interface FormElementSpec {
  fe_id: string;
  fe_name: string;
  fe_title: string;
  fe_type: ElementType;
  fe_is_required: boolean;
  fe_options: Record<string, unknown> | null;
  fe_listid: string | null;
  /** The list's items as a tree (list types only). */
  items?: ListItemNode[];
}

/** The answer of each element type. */
export interface AnswerByType {
  text: string;
  textarea: string;
  date_selector_days: string[];
  choice_chips_single: string;
  choice_chips_multiple: string[];
  checkbox: boolean;
  checkbox_tree: string[];
  radio_tree: string;
  selectbox: string;
  toggle: boolean;
  slider: number;
  picker: string;
}
export type AnswerValue = AnswerByType[ElementType];
/** A lead's answers (ld_answers): keyed by the element's data name (fe_name). */
export type Answers = Record<string, AnswerValue>;

/** What validateAnswers reports per data name (message keys of resources/messages.ts). */
export type AnswerError = 'error_required' | 'error_invalid_value' | 'error_too_long' | 'error_email_invalid';

type Kind = 'string' | 'strings' | 'boolean' | 'number';
const KIND: Record<ElementType, Kind> = {
  text: 'string',
  textarea: 'string',
  date_selector_days: 'strings',
  choice_chips_single: 'string',
  choice_chips_multiple: 'strings',
  checkbox: 'boolean',
  checkbox_tree: 'strings',
  radio_tree: 'string',
  selectbox: 'string',
  toggle: 'boolean',
  slider: 'number',
  picker: 'string',
};

/** Longest accepted text or textarea answer when the element sets no max_length. */
export const TEXT_LIMIT = 10_000;
export const SLIDER_DEFAULTS = { min: 0, max: 100, step: 1 } as const;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const option = (el: Pick<FormElementSpec, 'fe_options'>, key: string): unknown =>
  el.fe_options && typeof el.fe_options === 'object' && Object.hasOwn(el.fe_options, key) ? el.fe_options[key] : undefined;

/** The slider's range: fe_options {min, max, step}, each falling back to 0, 100, 1 when missing or unusable. */
export function sliderRange(el: Pick<FormElementSpec, 'fe_options'>): { min: number; max: number; step: number } {
  const rawMin = option(el, 'min');
  const rawMax = option(el, 'max');
  const rawStep = option(el, 'step');
  const min = finite(rawMin) ? rawMin : SLIDER_DEFAULTS.min;
  let max = finite(rawMax) ? rawMax : SLIDER_DEFAULTS.max;
  if (max < min) max = min;
  const step = finite(rawStep) && rawStep > 0 ? rawStep : SLIDER_DEFAULTS.step;
  return { min, max, step };
}

/** text/textarea: fe_options.max_length when it is a positive whole number, else null. */
export function maxLength(el: Pick<FormElementSpec, 'fe_options'>): number | null {
  const v = option(el, 'max_length');
  return finite(v) && Number.isInteger(v) && v > 0 ? v : null;
}

/** toggle/checkbox: fe_options.default (false unless true). */
export function booleanDefault(el: Pick<FormElementSpec, 'fe_options'>): boolean {
  return option(el, 'default') === true;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** date_selector_days: the offered days and the disabled ones (valid dates only, sorted, without repeats). */
export function dayOptions(el: Pick<FormElementSpec, 'fe_options'>): { days: string[]; disabled: string[] } {
  const dates = (v: unknown) => (Array.isArray(v) ? [...new Set(v.filter(isIsoDate))].sort() : []);
  return { days: dates(option(el, 'days')), disabled: dates(option(el, 'disabled')) };
}

/** Every node of a list tree, depth first (parents before their children). */
export function flattenItems(items: readonly ListItemNode[] | undefined): ListItemNode[] {
  const out: ListItemNode[] = [];
  const walk = (nodes: readonly ListItemNode[]) => {
    for (const node of nodes) {
      out.push(node);
      if (node.children?.length) walk(node.children);
    }
  };
  if (items) walk(items);
  return out;
}

/** The value of a blank element: '' for text and single choices, [] for multiple choices, false, the slider's min. */
export function emptyAnswer(el: FormElementSpec): AnswerValue {
  switch (KIND[el.fe_type]) {
    case 'strings':
      return [];
    case 'boolean':
      return false;
    case 'number':
      return sliderRange(el).min;
    default:
      return '';
  }
}

/** A new form's answers: blank, except toggle and checkbox {default} and the slider at its min. */
export function defaultAnswers(elements: readonly FormElementSpec[]): Answers {
  const out: Answers = {};
  for (const el of elements) {
    if (!isElementType(el.fe_type)) continue;
    out[el.fe_name] = el.fe_type === 'toggle' || el.fe_type === 'checkbox' ? booleanDefault(el) : emptyAnswer(el);
  }
  return out;
}

function checkString(el: FormElementSpec, value: string, listValues: () => Set<string>): AnswerError | null {
  if (el.fe_type === 'text' || el.fe_type === 'textarea') {
    if (value.trim() === '') return el.fe_is_required ? 'error_required' : null;
    if (value.length > (maxLength(el) ?? TEXT_LIMIT)) return 'error_too_long';
    if (el.fe_name === 'email' && el.fe_type === 'text' && !isEmail(value.trim())) return 'error_email_invalid';
    return null;
  }
  if (value === '') return el.fe_is_required ? 'error_required' : null;
  return listValues().has(value) ? null : 'error_invalid_value';
}

function checkStrings(el: FormElementSpec, values: unknown[], listValues: () => Set<string>): AnswerError | null {
  if (!values.every((v): v is string => typeof v === 'string')) return 'error_invalid_value';
  if (values.length === 0) return el.fe_is_required ? 'error_required' : null;
  if (new Set(values).size !== values.length) return 'error_invalid_value';
  if (el.fe_type === 'date_selector_days') {
    const { days, disabled } = dayOptions(el);
    const offered = new Set(days);
    const off = new Set(disabled);
    return values.every((d) => offered.has(d) && !off.has(d)) ? null : 'error_invalid_value';
  }
  const allowed = listValues();
  return values.every((v) => allowed.has(v)) ? null : 'error_invalid_value';
}

function checkNumber(el: FormElementSpec, value: number): AnswerError | null {
  const { min, max, step } = sliderRange(el);
  if (value < min || value > max) return 'error_invalid_value';
  const steps = (value - min) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9 ? null : 'error_invalid_value';
}

/** One element's answer: null when it is fine, else the message key. */
export function validateAnswer(el: FormElementSpec, value: unknown): AnswerError | null {
  const kind = KIND[el.fe_type];
  if (!kind) return null; // an unknown type has nothing to check (the API refuses such elements)
  if (value === undefined || value === null) return el.fe_is_required ? 'error_required' : null;
  // A list type whose items were not given accepts no value: the check fails closed.
  let values: Set<string> | undefined;
  const listValues = () => (values ??= new Set(flattenItems(el.items).map((n) => n.li_value)));
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? checkString(el, value, listValues) : 'error_invalid_value';
    case 'strings':
      return Array.isArray(value) ? checkStrings(el, value, listValues) : 'error_invalid_value';
    case 'boolean':
      if (typeof value !== 'boolean') return 'error_invalid_value';
      // A required checkbox must be ticked (consent style); a toggle is answered either way.
      return el.fe_type === 'checkbox' && el.fe_is_required && !value ? 'error_required' : null;
    case 'number':
      return finite(value) ? checkNumber(el, value) : 'error_invalid_value';
  }
}

/**
 * The form's answers checked element by element: { fe_name: message key } for each element that is missing a
 * required answer or has one of the wrong shape, outside its list, days or range, too long, or (data name email) not
 * an e-mail address. Empty = valid. Answers under names the form does not have are not looked at.
 */
export function validateAnswers(elements: readonly FormElementSpec[], answers: unknown): Record<string, AnswerError> {
  const given = answers !== null && typeof answers === 'object' && !Array.isArray(answers) ? (answers as Record<string, unknown>) : {};
  const errors: Record<string, AnswerError> = {};
  for (const el of elements) {
    const value = Object.hasOwn(given, el.fe_name) ? given[el.fe_name] : undefined;
    const error = validateAnswer(el, value);
    if (error) errors[el.fe_name] = error;
  }
  return errors;
}

/**
 * The answers to store: only the form's data names, text trimmed (an e-mail too), choices without repeats and days
 * sorted. Run after validateAnswers found nothing.
 */
export function normalizeAnswers(elements: readonly FormElementSpec[], answers: Record<string, unknown>): Answers {
  const out: Answers = {};
  for (const el of elements) {
    if (!Object.hasOwn(answers, el.fe_name)) continue;
    const value = answers[el.fe_name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') out[el.fe_name] = el.fe_type === 'text' || el.fe_type === 'textarea' ? value.trim() : value;
    else if (Array.isArray(value)) {
      const unique = [...new Set(value as string[])];
      out[el.fe_name] = el.fe_type === 'date_selector_days' ? unique.sort() : unique;
    } else out[el.fe_name] = value as AnswerValue;
  }
  return out;
}
