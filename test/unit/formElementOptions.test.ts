import { describe, expect, it } from 'vitest';
import { maxLengthFits, optionsError, sliderRangeFits, sliderStepFits } from '../../resources/formElements';
import { EMPTY_OPTIONS, optionErrors } from '../../admin/src/formElements/designerModel';

describe('fe_options rules, shared by the API and the form designer', () => {
  it('the declaration refuses what does not fit the type', () => {
    expect(optionsError('slider', { min: 0, max: 10, step: 2 })).toBeUndefined();
    expect(optionsError('slider', { max: 0 })).toBe('error_options_invalid'); // the default min is 0
    expect(optionsError('slider', { step: 0 })).toBe('error_options_invalid');
    expect(optionsError('text', { max_length: 100_000 })).toBeUndefined();
    expect(optionsError('text', { max_length: 100_001 })).toBe('error_options_invalid');
    expect(optionsError('textarea', { max_length: 1.5 })).toBe('error_options_invalid');
    expect(optionsError('date_selector_days', { days: Array.from({ length: 367 }, () => '2026-01-01') })).toBe('error_options_invalid');
    expect(optionsError('toggle', { min: 1 })).toBe('error_options_invalid');
    expect([sliderStepFits(0.5), sliderRangeFits(1, 1), maxLengthFits(0), maxLengthFits('5')]).toEqual([true, false, false, false]);
  });

  it('the designer says the same per input, before anything is sent', () => {
    expect(optionErrors('slider', { ...EMPTY_OPTIONS, max: '0' })).toEqual({ opt_max: 'error_slider_range' });
    expect(optionErrors('slider', { ...EMPTY_OPTIONS, step: '-1' })).toEqual({ opt_step: 'error_step_invalid' });
    expect(optionErrors('text', { ...EMPTY_OPTIONS, max_length: '0' })).toEqual({ opt_max_length: 'error_number_too_small' });
    expect(optionErrors('text', { ...EMPTY_OPTIONS, max_length: '100001' })).toEqual({ opt_max_length: 'error_number_too_large' });
    expect(optionErrors('text', { ...EMPTY_OPTIONS, max_length: '100000' })).toEqual({});
    expect(optionErrors('date_selector_days', { ...EMPTY_OPTIONS, disabled: Array.from({ length: 367 }, (_, i) => String(i)) })).toEqual({ opt_disabled: 'error_too_many' });
  });
});
