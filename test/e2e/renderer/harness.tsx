import { StrictMode, useState, type CSSProperties } from 'react';
import { createRoot } from 'react-dom/client';
import { defaultAnswers, FormRenderer } from '../../../admin/src/renderer';
import { countries, element, everyType, manyItems, node } from '../../helpers/formElements';

/**
 * Every element type plus long lists, for a person or a browser test to look at. Query: ?scheme=light|dark,
 * ?readonly=1, ?errors=1, ?accent=%23aa0055 (a form style's accent).
 */
const params = new URLSearchParams(location.search);
const big = manyItems(5000);
const elements = [
  ...everyType().map((e) => ({ ...e, fe_is_required: e.fe_is_required || e.fe_type === 'checkbox_tree' })),
  element('selectbox', 'big_select', { fe_title: 'A select with 5,000 items', items: big }),
  element('picker', 'big_picker', { fe_title: 'A picker with 5,000 items', items: big }),
  element('checkbox_tree', 'regions', {
    fe_title: 'Regions (a tree with a search)',
    items: [node('Europe', 'europe', countries()), node('Elsewhere', 'elsewhere', [node('Canada', 'canada'), node('Japan', 'japan')])],
  }),
  element('text', 'long_title', {
    fe_title: 'A rather long question that an organiser wrote to explain exactly what they would like to know from the visitor',
  }),
];
const errors = params.has('errors')
  ? { email: 'Please enter a valid email', interests: 'This field is required', colour: 'This field is required', terms: 'This field is required' }
  : undefined;

function Harness() {
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    params.has('readonly')
      ? { ...defaultAnswers(elements), email: 'ada@example.com', days: ['2025-05-12'], colours: ['red', 'blue'], interests: ['crm'], country: 'netherlands', city: 'zrh' }
      : { ...defaultAnswers(elements), interests: ['laser'] },
  );
  (window as unknown as { answers: unknown }).answers = values;
  const scheme = (params.get('scheme') as 'light' | 'dark' | null) ?? 'auto';
  const accent = params.get('accent');
  return (
    <div style={accent ? ({ '--ls-form-accent': accent } as CSSProperties) : undefined}>
      <FormRenderer
        elements={elements}
        values={values}
        onChange={(name, value) => setValues((prev) => ({ ...prev, [name]: value }))}
        errors={errors}
        readOnly={params.has('readonly')}
        colorScheme={scheme}
        idPrefix="h"
      />
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
