import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';
import { ELEMENT_TYPES, LIST_TYPES, type ElementType } from './answers.js';

/** The twelve element types and those that draw from a list live in answers.ts (no zod: the public pages use it). */
export const FORM_ELEMENT_TYPES = ELEMENT_TYPES;
export type FormElementType = ElementType;
export const LIST_ELEMENT_TYPES: readonly FormElementType[] = LIST_TYPES;

/** Data names that fill the lead's own fields. */
export const LEAD_FIELD_NAMES = ['email', 'first_name', 'last_name'] as const;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isDay = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The fe_options keys each type takes; other types take none. */
export const OPTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  slider: ['min', 'max', 'step'],
  date_selector_days: ['days', 'disabled'],
  text: ['max_length'],
  textarea: ['max_length'],
  toggle: ['default'],
  checkbox: ['default'],
};

/** A slider's range and step where fe_options leaves them out. */
export const SLIDER_DEFAULTS = { min: 0, max: 100, step: 1 } as const;
/** A slider moves by a positive step over a range whose end is above its start. */
export const sliderStepFits = (step: number) => step > 0;
export const sliderRangeFits = (min: number, max: number) => max > min;

/** text and textarea max_length: a whole number in this range. */
export const MAX_LENGTH_RANGE = { min: 1, max: 100_000 } as const;
export const maxLengthFits = (n: unknown) => Number.isInteger(n) && (n as number) >= MAX_LENGTH_RANGE.min && (n as number) <= MAX_LENGTH_RANGE.max;

/** date_selector_days: at most this many days, and as many disabled days. */
export const DAYS_LIMIT = 366;

/** fe_options by type (null/absent is fine: the defaults apply); returns a message key when they do not fit. */
export function optionsError(type: string, options: unknown): string | undefined {
  if (options === null || options === undefined) return undefined;
  if (typeof options !== 'object' || Array.isArray(options)) return 'error_options_invalid';
  const o = options as Record<string, unknown>;
  const allowed = OPTION_KEYS[type] ?? [];
  if (Object.keys(o).some((k) => !allowed.includes(k))) return 'error_options_invalid';
  switch (type) {
    case 'slider': {
      const min = o.min ?? SLIDER_DEFAULTS.min,
        max = o.max ?? SLIDER_DEFAULTS.max,
        step = o.step ?? SLIDER_DEFAULTS.step;
      if (!isNum(min) || !isNum(max) || !isNum(step) || !sliderStepFits(step) || !sliderRangeFits(min, max)) return 'error_options_invalid';
      return undefined;
    }
    case 'date_selector_days':
      for (const key of ['days', 'disabled']) {
        if (o[key] !== undefined && !(Array.isArray(o[key]) && (o[key] as unknown[]).length <= DAYS_LIMIT && (o[key] as unknown[]).every(isDay))) return 'error_options_invalid';
      }
      return undefined;
    case 'text':
    case 'textarea':
      if (o.max_length !== undefined && !maxLengthFits(o.max_length)) return 'error_options_invalid';
      return undefined;
    case 'toggle':
    case 'checkbox':
      if (o.default !== undefined && typeof o.default !== 'boolean') return 'error_options_invalid';
      return undefined;
  }
  return undefined;
}

/** An element of a form (account-console.md: form-elements). */
export const formElements = defineAccountResource({
  name: 'form-elements',
  table: 'form_elements',
  prefix: 'fe',
  group: 'account_form_elements',
  history: true,
  grants: staffAndMembers(15, 1),
  fields: {
    fe_formid: { kind: 'reference', reference: 'forms', parent: true, required: true, createOnly: true },
    fe_title: { kind: 'text', required: true, list: true, sort: true },
    fe_name: { kind: 'identifier', required: true, list: true, sort: true },
    fe_external_name: { kind: 'text', max: 200 },
    fe_type: { kind: 'enum', options: FORM_ELEMENT_TYPES, required: true, list: true, filter: true, sort: true },
    fe_listid: { kind: 'reference', reference: 'lists', filter: true, showWhen: { field: 'fe_type', values: LIST_ELEMENT_TYPES } },
    fe_order: { kind: 'number', integer: true, min: 0, max: 1_000_000, formHidden: true },
    fe_is_required: { kind: 'boolean', default: false, list: true },
    fe_options: { kind: 'json' },
  },
  search: ['fe_title', 'fe_name'],
  order: { field: 'fe_order', parent: ['fe_formid'] },
  unique: [{ field: 'fe_name' }],
  check(r) {
    const errors: Record<string, string> = {};
    const type = String(r.fe_type ?? '');
    const needsList = (LIST_ELEMENT_TYPES as readonly string[]).includes(type);
    if (needsList && !r.fe_listid) errors.fe_listid = 'error_list_required';
    if (!needsList && r.fe_listid) errors.fe_listid = 'error_list_not_allowed';
    if (r.fe_name === 'email' && type !== 'text') errors.fe_name = 'error_email_element_type';
    const options = optionsError(type, r.fe_options);
    if (options) errors.fe_options = options;
    return errors;
  },
  labels: {
    en: {
      name_one: 'Form element',
      name_other: 'Form elements',
      fields: {
        fe_formid: 'Form',
        fe_title: 'Title',
        fe_name: 'Data name',
        fe_external_name: 'CSV column name',
        fe_type: 'Type',
        fe_listid: 'List',
        fe_order: 'Order',
        fe_is_required: 'Required',
        fe_options: 'Options',
      },
      options: {
        fe_type: {
          text: 'Text',
          textarea: 'Text area',
          date_selector_days: 'Day selector',
          choice_chips_single: 'Chips (one choice)',
          choice_chips_multiple: 'Chips (several choices)',
          checkbox: 'Checkbox',
          checkbox_tree: 'Checkbox tree',
          radio_tree: 'Radio tree',
          selectbox: 'Select box',
          toggle: 'Toggle',
          slider: 'Slider',
          picker: 'Picker',
        },
      },
    },
    nl: {
      name_one: 'Formulierelement',
      name_other: 'Formulierelementen',
      fields: {
        fe_formid: 'Formulier',
        fe_title: 'Titel',
        fe_name: 'Gegevensnaam',
        fe_external_name: 'Kolomnaam in CSV',
        fe_type: 'Soort',
        fe_listid: 'Lijst',
        fe_order: 'Volgorde',
        fe_is_required: 'Verplicht',
        fe_options: 'Opties',
      },
      options: {
        fe_type: {
          text: 'Tekst',
          textarea: 'Tekstvak',
          date_selector_days: 'Dagkiezer',
          choice_chips_single: 'Chips (één keuze)',
          choice_chips_multiple: 'Chips (meerdere keuzes)',
          checkbox: 'Selectievakje',
          checkbox_tree: 'Boom met selectievakjes',
          radio_tree: 'Boom met keuzerondjes',
          selectbox: 'Keuzelijst',
          toggle: 'Schakelaar',
          slider: 'Schuifregelaar',
          picker: 'Kiezer',
        },
      },
    },
  },
});
