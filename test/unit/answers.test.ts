import { describe, expect, it } from 'vitest';
import {
  defaultAnswers,
  ELEMENT_TYPES,
  emptyAnswer,
  isListType,
  LIST_TYPES,
  normalizeAnswers,
  sliderRange,
  TEXT_LIMIT,
  validateAnswers,
  type FormElementSpec,
} from '../../resources/answers.js';
import { MESSAGES } from '../../resources/messages.js';
import { colours, element, everyType, interests } from '../helpers/formElements.js';

const one = (el: FormElementSpec, value: unknown) => validateAnswers([el], { [el.fe_name]: value })[el.fe_name];
const required = (el: FormElementSpec): FormElementSpec => ({ ...el, fe_is_required: true });

describe('element types (contract section 3)', () => {
  it('are the twelve of the contract, in its order', () => {
    expect(ELEMENT_TYPES).toEqual([
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
    ]);
  });
  it('list types are the chips, the trees, the selectbox and the picker', () => {
    expect([...LIST_TYPES].sort()).toEqual(['checkbox_tree', 'choice_chips_multiple', 'choice_chips_single', 'picker', 'radio_tree', 'selectbox']);
    expect(isListType('text')).toBe(false);
    expect(isListType('picker')).toBe(true);
  });
  it('every message key validateAnswers can answer has an English text', () => {
    for (const key of ['error_required', 'error_invalid_value', 'error_too_long', 'error_email_invalid']) expect(MESSAGES).toHaveProperty(key);
  });
});

describe('emptyAnswer and defaultAnswers', () => {
  it('give each type a value of its own shape', () => {
    const byName = defaultAnswers(everyType());
    expect(byName).toEqual({
      email: '',
      notes: '',
      days: [],
      colour: '',
      colours: [],
      terms: false,
      interests: [],
      main_interest: '',
      country: '',
      newsletter: true, // toggle {default: true}
      budget: 0, // slider min
      city: '',
    });
  });
  it('start the slider at its min, 0 without options (spec 9: 0..100)', () => {
    expect(emptyAnswer(element('slider', 's', { fe_options: { min: 10, max: 20 } }))).toBe(10);
    expect(emptyAnswer(element('slider', 's'))).toBe(0);
    expect(sliderRange(element('slider', 's'))).toEqual({ min: 0, max: 100, step: 1 });
  });
  it('take a checkbox default only when it is literally true', () => {
    expect(defaultAnswers([element('checkbox', 'c', { fe_options: { default: true } })])).toEqual({ c: true });
    expect(defaultAnswers([element('checkbox', 'c', { fe_options: { default: 'yes' } })])).toEqual({ c: false });
  });
  it('the defaults of a form without required elements are valid', () => {
    const elements = everyType().map((el) => ({ ...el, fe_is_required: false }));
    expect(validateAnswers(elements, defaultAnswers(elements))).toEqual({});
  });
});

describe('validateAnswers: required', () => {
  it('a missing, null or blank answer to a required element is error_required', () => {
    const elements = everyType().map(required);
    const errors = validateAnswers(elements, {});
    // nothing given: every element is missing, the toggle and the slider too
    expect(Object.keys(errors).sort()).toEqual(elements.map((e) => e.fe_name).sort());
    expect(new Set(Object.values(errors))).toEqual(new Set(['error_required']));
    const blank = validateAnswers(elements, defaultAnswers(elements));
    // with the defaults: the toggle (true) and the slider (min) are answered; the unticked checkbox is not
    expect(Object.keys(blank).sort()).toEqual(['city', 'colour', 'colours', 'country', 'days', 'email', 'interests', 'main_interest', 'notes', 'terms']);
    expect(one(required(element('text', 't')), null)).toBe('error_required');
    expect(one(required(element('text', 't')), '   ')).toBe('error_required');
  });
  it('a required checkbox must be ticked; a required toggle may be off', () => {
    expect(one(required(element('checkbox', 'c')), false)).toBe('error_required');
    expect(one(required(element('checkbox', 'c')), true)).toBeUndefined();
    expect(one(required(element('toggle', 't')), false)).toBeUndefined();
  });
  it('optional elements may stay blank', () => {
    expect(
      validateAnswers(
        everyType().map((e) => ({ ...e, fe_is_required: false })),
        {},
      ),
    ).toEqual({});
  });
});

describe('validateAnswers: shapes', () => {
  const cases: [FormElementSpec, unknown][] = [
    [element('text', 't'), 12],
    [element('textarea', 't'), ['a']],
    [element('choice_chips_single', 'c', { items: colours() }), ['red']],
    [element('choice_chips_multiple', 'c', { items: colours() }), 'red'],
    [element('choice_chips_multiple', 'c', { items: colours() }), ['red', 3]],
    [element('checkbox', 'c'), 'true'],
    [element('toggle', 't'), 1],
    [element('slider', 's'), '50'],
    [element('slider', 's'), Number.NaN],
    [element('slider', 's'), Number.POSITIVE_INFINITY],
    [element('date_selector_days', 'd', { fe_options: { days: ['2025-05-12'] } }), '2025-05-12'],
    [element('checkbox_tree', 'i', { items: interests() }), { crm: true }],
    [element('picker', 'p', { items: colours() }), true],
  ];
  it.each(cases.map(([el, v]) => [el.fe_type, JSON.stringify(v) ?? String(v), el, v] as const))('%s with %s is error_invalid_value', (_t, _v, el, value) => {
    expect(one(el, value)).toBe('error_invalid_value');
    expect(one(required(el), value)).toBe('error_invalid_value');
  });
  it('answers that are not an object count as none', () => {
    const el = required(element('text', 't'));
    expect(validateAnswers([el], null)).toEqual({ t: 'error_required' });
    expect(validateAnswers([el], ['x'])).toEqual({ t: 'error_required' });
    expect(validateAnswers([el], 'x')).toEqual({ t: 'error_required' });
  });
  it('reads only own keys: a data name like "constructor" is not answered by Object.prototype', () => {
    expect(validateAnswers([required(element('text', 'constructor'))], {})).toEqual({ constructor: 'error_required' });
    expect(validateAnswers([required(element('text', 'toString'))], JSON.parse('{"__proto__": {"toString": "x"}}'))).toEqual({ toString: 'error_required' });
  });
  it('answers under names the form does not have are ignored', () => {
    expect(validateAnswers([element('text', 't')], { other: 42 })).toEqual({});
  });
});

describe('validateAnswers: lists', () => {
  const single = element('selectbox', 's', { items: interests() });
  it('a value of the list is fine, any node of a tree included', () => {
    for (const v of ['software', 'crm', 'printers', 'laser', 'services']) expect(one(single, v)).toBeUndefined();
    expect(one(element('radio_tree', 'r', { items: interests() }), 'inkjet')).toBeUndefined();
    expect(one(element('checkbox_tree', 'c', { items: interests() }), ['hardware', 'printers', 'laser', 'inkjet', 'scanners'])).toBeUndefined();
  });
  it('a value not in the list is error_invalid_value, for every list type', () => {
    expect(one(single, 'Software')).toBe('error_invalid_value'); // the title, not the value
    expect(one(element('choice_chips_single', 'c', { items: colours() }), 'purple')).toBe('error_invalid_value');
    expect(one(element('picker', 'p', { items: colours() }), 'purple')).toBe('error_invalid_value');
    expect(one(element('radio_tree', 'r', { items: interests() }), 'purple')).toBe('error_invalid_value');
    expect(one(element('choice_chips_multiple', 'c', { items: colours() }), ['red', 'purple'])).toBe('error_invalid_value');
    expect(one(element('checkbox_tree', 'c', { items: interests() }), ['crm', 'purple'])).toBe('error_invalid_value');
  });
  it('the same value twice is error_invalid_value', () => {
    expect(one(element('choice_chips_multiple', 'c', { items: colours() }), ['red', 'red'])).toBe('error_invalid_value');
  });
  it('an empty choice is blank (required or not), not invalid', () => {
    expect(one(single, '')).toBeUndefined();
    expect(one(required(single), '')).toBe('error_required');
    expect(one(required(element('choice_chips_multiple', 'c', { items: colours() })), [])).toBe('error_required');
  });
  it('a list type without its items accepts no value (fails closed)', () => {
    expect(one(element('selectbox', 's'), 'red')).toBe('error_invalid_value');
  });
});

describe('validateAnswers: text', () => {
  it('longer than max_length is error_too_long; exactly max_length is fine', () => {
    const el = element('text', 'company', { fe_options: { max_length: 5 } });
    expect(one(el, 'abcde')).toBeUndefined();
    expect(one(el, 'abcdef')).toBe('error_too_long');
    expect(one(element('textarea', 'n', { fe_options: { max_length: 3 } }), 'a\nbc')).toBe('error_too_long');
  });
  it(`without max_length, a text is capped at ${TEXT_LIMIT} characters`, () => {
    expect(one(element('textarea', 'n'), 'x'.repeat(TEXT_LIMIT))).toBeUndefined();
    expect(one(element('textarea', 'n'), 'x'.repeat(TEXT_LIMIT + 1))).toBe('error_too_long');
  });
  it('the data name email must be an e-mail address (spaces around it are allowed)', () => {
    const email = element('text', 'email');
    expect(one(email, 'ada@example.com')).toBeUndefined();
    expect(one(email, '  ada@example.com ')).toBeUndefined();
    for (const bad of ['ada', 'ada@', 'ada@example', 'a da@example.com', 'ada@@example.com']) expect(one(email, bad), bad).toBe('error_email_invalid');
    expect(one(email, '')).toBeUndefined();
    expect(one(required(email), '')).toBe('error_required');
  });
  it('other data names are not checked as e-mail', () => {
    expect(one(element('text', 'company'), 'not an email')).toBeUndefined();
  });
});

describe('validateAnswers: slider', () => {
  const el = element('slider', 'budget', { fe_options: { min: 10, max: 50, step: 5 } });
  it('accepts values on a step between min and max', () => {
    for (const v of [10, 15, 45, 50]) expect(one(el, v), String(v)).toBeUndefined();
  });
  it('refuses values outside min..max or off a step', () => {
    for (const v of [5, 55, 12, 10.5, -10]) expect(one(el, v), String(v)).toBe('error_invalid_value');
  });
  it('uses 0..100 by 1 without options, and takes decimal steps without float noise', () => {
    expect(one(element('slider', 's'), 100)).toBeUndefined();
    expect(one(element('slider', 's'), 101)).toBe('error_invalid_value');
    expect(one(element('slider', 's'), 1.5)).toBe('error_invalid_value');
    const fine = element('slider', 's', { fe_options: { min: 0, max: 1, step: 0.1 } });
    expect(one(fine, 0.3)).toBeUndefined();
    expect(one(fine, 0.7)).toBeUndefined();
    expect(one(fine, 0.35)).toBe('error_invalid_value');
  });
  it('falls back to the defaults for unusable options', () => {
    expect(sliderRange(element('slider', 's', { fe_options: { min: 'a', max: null, step: -1 } }))).toEqual({ min: 0, max: 100, step: 1 });
    expect(sliderRange(element('slider', 's', { fe_options: { min: 60, max: 10 } }))).toEqual({ min: 60, max: 60, step: 1 });
  });
});

describe('validateAnswers: date_selector_days', () => {
  const el = element('date_selector_days', 'days', { fe_options: { days: ['2025-05-12', '2025-05-13', '2025-05-14'], disabled: ['2025-05-13'] } });
  it('accepts offered days that are not disabled', () => {
    expect(one(el, ['2025-05-12', '2025-05-14'])).toBeUndefined();
  });
  it('refuses a day that is not offered, a disabled one, or a non-date', () => {
    expect(one(el, ['2025-05-15'])).toBe('error_invalid_value');
    expect(one(el, ['2025-05-13'])).toBe('error_invalid_value');
    expect(one(el, ['2025-05-12', 'tomorrow'])).toBe('error_invalid_value');
    expect(one(el, ['2025-02-30'])).toBe('error_invalid_value');
  });
  it('offers nothing without days', () => {
    expect(one(element('date_selector_days', 'd'), ['2025-05-12'])).toBe('error_invalid_value');
  });
});

describe('normalizeAnswers', () => {
  it('keeps the form data names only, trims text, drops repeats, sorts days', () => {
    const elements = [
      element('text', 'email'),
      element('choice_chips_multiple', 'colours', { items: colours() }),
      element('date_selector_days', 'days', { fe_options: { days: ['2025-05-12', '2025-05-14'] } }),
      element('toggle', 'news'),
    ];
    expect(normalizeAnswers(elements, { email: ' ada@example.com ', colours: ['red', 'blue', 'red'], days: ['2025-05-14', '2025-05-12'], news: false, extra: 'x' })).toEqual({
      email: 'ada@example.com',
      colours: ['red', 'blue'],
      days: ['2025-05-12', '2025-05-14'],
      news: false,
    });
  });
});
