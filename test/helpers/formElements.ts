import type { ElementType, FormElementSpec, ListItemNode } from '../../resources/answers';

/** Form elements for the answers and renderer tests (and the renderer's browser harness). */

let seq = 0;
export function node(title: string, value: string, children: ListItemNode[] = []): ListItemNode {
  seq += 1;
  return { li_id: `li-${value}-${seq}`, li_title: title, li_value: value, children };
}

export function element(type: ElementType, name: string, extra: Partial<FormElementSpec> = {}): FormElementSpec {
  return { fe_id: `fe-${name}`, fe_name: name, fe_title: name, fe_type: type, fe_is_required: false, fe_options: null, fe_listid: null, ...extra };
}

export const colours = (): ListItemNode[] => [node('Red', 'red'), node('Green', 'green'), node('Blue', 'blue')];

/** Two levels: Software (CRM, ERP) and Hardware (Printers (Laser, Inkjet), Scanners). */
export const interests = (): ListItemNode[] => [
  node('Software', 'software', [node('CRM', 'crm'), node('ERP', 'erp')]),
  node('Hardware', 'hardware', [node('Printers', 'printers', [node('Laser', 'laser'), node('Inkjet', 'inkjet')]), node('Scanners', 'scanners')]),
  node('Services', 'services'),
];

const COUNTRY_NAMES = [
  'Austria',
  'Belgium',
  'Bulgaria',
  'Croatia',
  'Cyprus',
  'Czechia',
  'Denmark',
  'Estonia',
  'Finland',
  'France',
  'Germany',
  'Greece',
  'Hungary',
  'Ireland',
  'Italy',
  'Latvia',
  'Lithuania',
  'Luxembourg',
  'Malta',
  'Netherlands',
  'Poland',
  'Portugal',
  'Romania',
  'Slovakia',
  'Slovenia',
  'Spain',
  'Sweden',
];
/** 27 flat items: more than 15, so a select searches. */
export const countries = (): ListItemNode[] => COUNTRY_NAMES.map((n) => node(n, n.toLowerCase()));

/** `count` flat items "Item 1" … "Item N" (values item-1 …). */
export const manyItems = (count: number): ListItemNode[] => Array.from({ length: count }, (_, i) => node(`Item ${i + 1}`, `item-${i + 1}`));

/** One element of every type, in the contract's order. */
export function everyType(): FormElementSpec[] {
  return [
    element('text', 'email', { fe_title: 'E-mail', fe_is_required: true, fe_options: { max_length: 120 } }),
    element('textarea', 'notes', { fe_title: 'Notes', fe_options: { max_length: 500 } }),
    element('date_selector_days', 'days', {
      fe_title: 'Days you attend',
      fe_options: { days: ['2025-05-12', '2025-05-13', '2025-05-14', '2025-06-02'], disabled: ['2025-05-13'] },
    }),
    element('choice_chips_single', 'colour', { fe_title: 'Favourite colour', fe_listid: 'l-colours', items: colours() }),
    element('choice_chips_multiple', 'colours', { fe_title: 'Colours you like', fe_listid: 'l-colours', items: colours() }),
    element('checkbox', 'terms', { fe_title: 'I accept the terms', fe_is_required: true }),
    element('checkbox_tree', 'interests', { fe_title: 'Interests', fe_listid: 'l-interests', items: interests() }),
    element('radio_tree', 'main_interest', { fe_title: 'Main interest', fe_listid: 'l-interests', items: interests() }),
    element('selectbox', 'country', { fe_title: 'Country', fe_listid: 'l-countries', items: countries() }),
    element('toggle', 'newsletter', { fe_title: 'Newsletter', fe_options: { default: true } }),
    element('slider', 'budget', { fe_title: 'Budget', fe_options: { min: 0, max: 50, step: 5 } }),
    element('picker', 'city', { fe_title: 'City', fe_listid: 'l-cities', items: [node('Amsterdam', 'ams'), node('Brussels', 'bru'), node('Zürich', 'zrh')] }),
  ];
}
