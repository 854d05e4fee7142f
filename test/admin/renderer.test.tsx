import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultAnswers, DEFAULT_TEXTS, FormRenderer, rendererTexts, type FormElementSpec, type FormRendererProps } from '../../admin/src/renderer';
// The renderer's words are console texts (the designer's preview); the public pages carry their own copy.
import en from '../../admin/src/i18n/console/en';
import nl from '../../admin/src/i18n/console/nl';
import { createTranslator, type Messages } from '../../admin/src/i18n/tiny';
import { colours, countries, element, everyType, interests, manyItems, node } from '../helpers/formElements';

afterEach(cleanup);

/** The renderer with its answers held in state, as a page would; every onChange is also recorded. */
function setup(elements: FormElementSpec[], props: Partial<FormRendererProps> & { initial?: Record<string, unknown> } = {}) {
  const onChange = vi.fn();
  const { initial, ...rest } = props;
  function Page() {
    const [values, setValues] = useState<Record<string, unknown>>(initial ?? defaultAnswers(elements));
    return (
      <FormRenderer
        elements={elements}
        values={values}
        onChange={(name, value) => {
          onChange(name, value);
          setValues((prev) => ({ ...prev, [name]: value }));
        }}
        {...rest}
      />
    );
  }
  const user = userEvent.setup();
  const view = render(<Page />);
  const last = (name: string) => onChange.mock.calls.filter(([n]) => n === name).at(-1)?.[1];
  return { user, onChange, last, view };
}

const by = (name: string) => elementByName(name);
function elementByName(name: string) {
  const found = document.querySelector(`[data-name="${name}"]`);
  if (!found) throw new Error(`no element ${name}`);
  return found as HTMLElement;
}

describe('every type renders with its label', () => {
  it('draws the twelve types with a visible label linked to the control', () => {
    setup(everyType());
    expect((screen.getByRole('textbox', { name: 'E-mail' }) as HTMLInputElement).type).toBe('email');
    expect(screen.getByRole('textbox', { name: 'Notes' }).tagName).toBe('TEXTAREA');
    expect(screen.getByRole('group', { name: /^Days you attend/ }).tagName).toBe('FIELDSET');
    expect(screen.getAllByRole('grid')).toHaveLength(2); // May and June 2025
    expect(screen.getByRole('radiogroup', { name: 'Favourite colour' })).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Colours you like' })).getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.getByRole('checkbox', { name: 'I accept the terms' })).toBeTruthy();
    expect(screen.getByRole('tree', { name: 'Interests' }).getAttribute('aria-multiselectable')).toBe('true');
    expect(screen.getByRole('tree', { name: 'Main interest' }).getAttribute('aria-multiselectable')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Country' }).tagName).toBe('INPUT'); // 27 countries: searchable
    expect(screen.getByRole('switch', { name: 'Newsletter' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Budget' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'City Choose…' }).getAttribute('aria-haspopup')).toBe('dialog');
    // each label is on screen (not only an aria-label)
    for (const el of everyType()) expect(within(by(el.fe_name)).getAllByText(el.fe_title, { exact: false }).length).toBeGreaterThan(0);
  });

  it('skips a type it does not know (a newer server), even one named like an Object property', () => {
    const odd = [
      element('text', 'a', { fe_title: 'Before' }),
      { ...element('text', 'b'), fe_type: 'constructor' },
      { ...element('text', 'c'), fe_type: 'video' },
      element('text', 'd', { fe_title: 'After' }),
    ] as FormElementSpec[];
    setup(odd);
    expect(screen.getAllByRole('textbox').map((t) => t.id.split('-').at(-1))).toEqual(['a', 'd']);
  });

  it('uses the idPrefix for the controls', () => {
    setup([element('text', 'company', { fe_title: 'Company' })], { idPrefix: 'reg' });
    expect(screen.getByRole('textbox', { name: 'Company' }).id).toBe('reg-company');
  });

  it('takes its words from texts, English for the rest', () => {
    setup([element('picker', 'city', { fe_title: 'Stad', items: colours() })], { texts: { choose: 'Kies…' } });
    expect(screen.getByRole('button', { name: 'Stad Kies…' })).toBeTruthy();
  });
});

describe('translations', () => {
  it('the English i18n texts are the defaults; Dutch ones reach the widgets', async () => {
    expect(rendererTexts(createTranslator(en as unknown as Messages, 'en').t)).toEqual(DEFAULT_TEXTS);
    const dutch = rendererTexts(createTranslator(nl as unknown as Messages, 'nl').t);
    const { user } = setup([element('selectbox', 'item', { fe_title: 'Artikel', items: manyItems(300) }), element('picker', 'stad', { fe_title: 'Stad', items: colours() })], {
      texts: dutch,
      locale: 'nl-NL',
    });
    expect(screen.getByRole('button', { name: 'Stad Kies…' })).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Artikel' }));
    expect(screen.getByRole('status').textContent).toBe('200 van 300 getoond. Typ om de lijst te verkleinen.');
  });
});

describe('text and textarea', () => {
  it('report strings, cap at max_length and count the characters', async () => {
    const { user, last } = setup([element('text', 'company', { fe_title: 'Company', fe_options: { max_length: 5 } }), element('textarea', 'notes', { fe_title: 'Notes' })]);
    const company = screen.getByRole('textbox', { name: 'Company' }) as HTMLInputElement;
    expect(company.maxLength).toBe(5);
    await user.type(company, 'Acme Corp');
    expect(last('company')).toBe('Acme ');
    expect(screen.getByRole('textbox', { name: 'Company', description: '5 of 5 characters' })).toBe(company);
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'a{Enter}b');
    expect(last('notes')).toBe('a\nb');
  });
});

describe('choice chips', () => {
  const single = () => element('choice_chips_single', 'colour', { fe_title: 'Colour', items: colours() });

  it('single: one tab stop; arrows, Home and End move and choose', async () => {
    const { user, last } = setup([element('text', 'before', { fe_title: 'Before' }), single()]);
    await user.click(screen.getByRole('textbox', { name: 'Before' }));
    await user.tab();
    const radios = screen.getAllByRole('radio');
    expect(radios.filter((r) => r.tabIndex === 0)).toHaveLength(1);
    expect(document.activeElement).toBe(radios[0]);
    await user.keyboard('{ArrowRight}');
    expect(last('colour')).toBe('green');
    expect(document.activeElement).toBe(radios[1]);
    expect(radios[1].getAttribute('aria-checked')).toBe('true');
    expect(radios[0].getAttribute('aria-checked')).toBe('false');
    await user.keyboard('{End}');
    expect(last('colour')).toBe('blue');
    await user.keyboard('{ArrowRight}'); // wraps
    expect(last('colour')).toBe('red');
    await user.keyboard('{ArrowLeft}');
    expect(last('colour')).toBe('blue');
    // the tab stop is now the chosen chip
    expect(screen.getAllByRole('radio').find((r) => r.tabIndex === 0)?.textContent).toBe('Blue');
  });

  it('single: Space chooses; choosing the chosen chip again clears an optional element, not a required one', async () => {
    const { user, last } = setup([single()]);
    await user.click(screen.getByRole('radio', { name: 'Green' }));
    expect(last('colour')).toBe('green');
    await user.click(screen.getByRole('radio', { name: 'Green' }));
    expect(last('colour')).toBe('');
    cleanup();
    const req = setup([{ ...single(), fe_is_required: true }]);
    screen.getByRole('radio', { name: 'Blue' }).focus();
    await req.user.keyboard(' ');
    expect(req.last('colour')).toBe('blue');
    await req.user.keyboard(' ');
    expect(req.last('colour')).toBe('blue');
  });

  it('multiple: checkbox chips report the chosen values in list order', async () => {
    const { user, last } = setup([element('choice_chips_multiple', 'colours', { fe_title: 'Colours', items: colours() })]);
    await user.click(screen.getByRole('checkbox', { name: 'Blue' }));
    await user.click(screen.getByRole('checkbox', { name: 'Red' }));
    expect(last('colours')).toEqual(['red', 'blue']);
    screen.getByRole('checkbox', { name: 'Green' }).focus();
    await user.keyboard(' ');
    expect(last('colours')).toEqual(['red', 'green', 'blue']);
    await user.click(screen.getByRole('checkbox', { name: 'Red' }));
    expect(last('colours')).toEqual(['green', 'blue']);
    expect((screen.getByRole('checkbox', { name: 'Red' }) as HTMLInputElement).checked).toBe(false);
  });

  it('above 15 items a search narrows the chips', async () => {
    const { user } = setup([element('choice_chips_multiple', 'countries', { fe_title: 'Countries', items: countries() })]);
    expect(screen.getAllByRole('checkbox')).toHaveLength(27);
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'land');
    expect(screen.getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual(['Finland', 'Ireland', 'Netherlands', 'Poland']);
  });
});

describe('checkbox and toggle', () => {
  it('a checkbox reports a boolean', async () => {
    const { user, last } = setup([element('checkbox', 'terms', { fe_title: 'Terms' })]);
    await user.click(screen.getByRole('checkbox', { name: 'Terms' }));
    expect(last('terms')).toBe(true);
    await user.keyboard(' ');
    expect(last('terms')).toBe(false);
  });

  it('a toggle is a switch, starts at its default and flips with Space and Enter', async () => {
    const { user, last } = setup([element('toggle', 'news', { fe_title: 'Newsletter', fe_options: { default: true } })]);
    const sw = screen.getByRole('switch', { name: 'Newsletter' }) as HTMLInputElement;
    expect(sw.checked).toBe(true);
    sw.focus();
    await user.keyboard(' ');
    expect(last('news')).toBe(false);
    expect(sw.checked).toBe(false);
    await user.keyboard('{Enter}');
    expect(last('news')).toBe(true);
  });
});

describe('slider', () => {
  it('moves by its step with the keys and shows the value', async () => {
    const { user, last } = setup([element('slider', 'budget', { fe_title: 'Budget', fe_options: { min: 0, max: 50, step: 5 } })]);
    const slider = screen.getByRole('slider', { name: 'Budget' }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step, slider.value]).toEqual(['0', '50', '5', '0']);
    slider.focus();
    await user.keyboard('{ArrowRight}');
    expect(last('budget')).toBe(5);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(last('budget')).toBe(15);
    expect(by('budget').querySelector('output')?.textContent).toBe('15');
    expect(slider.getAttribute('aria-valuetext')).toBe('15');
    await user.keyboard('{End}');
    expect(last('budget')).toBe(50);
    await user.keyboard('{ArrowRight}'); // at the end: no change, no event
    expect(last('budget')).toBe(50);
    await user.keyboard('{PageDown}');
    expect(last('budget')).toBe(0);
    expect(typeof last('budget')).toBe('number');
  });

  it('defaults to 0..100 (spec 9)', () => {
    setup([element('slider', 'score', { fe_title: 'Score' })]);
    const slider = screen.getByRole('slider', { name: 'Score' }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step]).toEqual(['0', '100', '1']);
  });
});

describe('trees', () => {
  const tree = () => element('checkbox_tree', 'interests', { fe_title: 'Interests', items: interests() });
  const item = (name: string) => screen.getByRole('treeitem', { name });

  it('checkbox tree: arrows walk and open nodes; Space checks a subtree; the parent shows mixed', async () => {
    const { user, last } = setup([tree()]);
    await user.tab();
    expect(document.activeElement).toBe(item('Software'));
    expect(screen.getAllByRole('treeitem').map((t) => t.textContent)).toEqual(['Software', 'Hardware', 'Services']);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item('Hardware'));
    expect(item('Hardware').getAttribute('aria-expanded')).toBe('false');
    await user.keyboard('{ArrowRight}');
    expect(item('Hardware').getAttribute('aria-expanded')).toBe('true');
    expect(item('Printers').getAttribute('aria-level')).toBe('2');
    await user.keyboard('{ArrowRight}'); // open: to the first child
    expect(document.activeElement).toBe(item('Printers'));
    await user.keyboard(' ');
    expect(last('interests')).toEqual(['printers', 'laser', 'inkjet']);
    expect(item('Printers').getAttribute('aria-checked')).toBe('true');
    expect(item('Hardware').getAttribute('aria-checked')).toBe('mixed');
    expect(item('Software').getAttribute('aria-checked')).toBe('false');
    await user.keyboard('{ArrowDown}{Enter}'); // Scanners
    expect(last('interests')).toEqual(['hardware', 'printers', 'laser', 'inkjet', 'scanners']);
    expect(item('Hardware').getAttribute('aria-checked')).toBe('true');
    await user.keyboard('{ArrowLeft}'); // a leaf: to its parent
    expect(document.activeElement).toBe(item('Hardware'));
    await user.keyboard('{ArrowLeft}'); // open: closes
    expect(item('Hardware').getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('treeitem', { name: 'Printers' })).toBeNull();
    await user.keyboard(' '); // clears the whole subtree
    expect(last('interests')).toEqual([]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(item('Services'));
  });

  it('checkbox tree: a click checks, and the nodes on the way to a stored answer start open', async () => {
    const { user, last } = setup([tree()], { initial: { interests: ['laser'] } });
    expect(item('Hardware').getAttribute('aria-expanded')).toBe('true');
    expect(item('Printers').getAttribute('aria-checked')).toBe('mixed');
    await user.click(item('Inkjet'));
    expect(last('interests')).toEqual(['printers', 'laser', 'inkjet']);
  });

  it('radio tree: Enter or a click picks one node, leaf or not', async () => {
    const { user, last } = setup([element('radio_tree', 'main', { fe_title: 'Main interest', items: interests() })]);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(last('main')).toBe('software');
    expect(item('Software').getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowRight}{ArrowRight} ');
    expect(last('main')).toBe('crm');
    expect(item('Software').getAttribute('aria-selected')).toBe('false');
    expect(item('CRM').getAttribute('aria-selected')).toBe('true');
  });

  it('above 15 items a search shows the matches with their ancestors', async () => {
    const big = [node('Europe', 'europe', countries()), node('Elsewhere', 'elsewhere', [node('Canada', 'canada')])];
    const { user } = setup([element('checkbox_tree', 'where', { fe_title: 'Where', items: big })]);
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'land');
    expect(screen.getAllByRole('treeitem').map((t) => t.textContent)).toEqual(['Europe', 'Finland', 'Ireland', 'Netherlands', 'Poland']);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item('Europe'));
  });
});

describe('date selector', () => {
  const days = () =>
    element('date_selector_days', 'days', {
      fe_title: 'Days',
      fe_options: { days: ['2025-05-12', '2025-05-13', '2025-05-14', '2025-06-02'], disabled: ['2025-05-13'] },
    });
  const cell = (date: string) => document.querySelector(`[data-date="${date}"]`) as HTMLElement;

  it('draws Monday-first months covering the days; only offered, not disabled days can be chosen', () => {
    setup([days()]);
    const [may, june] = screen.getAllByRole('grid');
    expect(screen.getByRole('grid', { name: 'May 2025' })).toBe(may);
    expect(screen.getByRole('grid', { name: 'June 2025' })).toBe(june);
    expect(
      within(may)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(cell('2025-05-12').getAttribute('aria-selected')).toBe('false');
    expect(cell('2025-05-12').getAttribute('aria-disabled')).toBeNull();
    expect(cell('2025-05-13').getAttribute('aria-disabled')).toBe('true'); // disabled
    expect(cell('2025-05-20').getAttribute('aria-disabled')).toBe('true'); // not offered
    expect(screen.getByRole('gridcell', { name: 'Monday, 12 May 2025' })).toBe(cell('2025-05-12'));
  });

  it('arrows move between days (and months), Space and Enter choose several days', async () => {
    const { user, last } = setup([days()]);
    await user.tab();
    expect(document.activeElement).toBe(cell('2025-05-12'));
    await user.keyboard('{ArrowRight} ');
    expect(document.activeElement).toBe(cell('2025-05-13'));
    expect(last('days')).toBeUndefined(); // disabled: nothing happens
    await user.keyboard('{ArrowRight}{Enter}');
    expect(last('days')).toEqual(['2025-05-14']);
    await user.keyboard('{ArrowLeft}{ArrowLeft} ');
    expect(last('days')).toEqual(['2025-05-12', '2025-05-14']);
    expect(cell('2025-05-12').getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}'); // 19, 26 May, then 2 June: into the next month
    expect(document.activeElement).toBe(cell('2025-06-02'));
    await user.keyboard(' ');
    expect(last('days')).toEqual(['2025-05-12', '2025-05-14', '2025-06-02']);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(cell('2025-06-02')); // already a Monday
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(cell('2025-06-08'));
    await user.keyboard('{PageUp}');
    expect(document.activeElement).toBe(cell('2025-05-08'));
    await user.click(cell('2025-05-14'));
    expect(last('days')).toEqual(['2025-05-12', '2025-06-02']);
  });

  it('says so when there are no days', () => {
    setup([element('date_selector_days', 'none', { fe_title: 'None' })]);
    expect(screen.getByRole('status').textContent).toBe('There are no days to choose from.');
  });
});

describe('selectbox', () => {
  it('up to 15 items: a native select with an empty choice', async () => {
    const { user, last } = setup([element('selectbox', 'colour', { fe_title: 'Colour', items: colours() })]);
    const select = screen.getByRole('combobox', { name: 'Colour' }) as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Choose…', 'Red', 'Green', 'Blue']);
    expect(screen.queryByRole('searchbox')).toBeNull();
    await user.selectOptions(select, 'Green');
    expect(last('colour')).toBe('green');
  });

  it('above 15 items: a combobox that filters by prefix, then substring; arrows and Enter choose', async () => {
    const { user, last } = setup([element('selectbox', 'country', { fe_title: 'Country', items: countries() })]);
    const input = screen.getByRole('combobox', { name: 'Country' }) as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    await user.type(input, 'an');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    const listbox = screen.getByRole('listbox', { name: 'Country' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Finland', 'France', 'Germany', 'Ireland', 'Lithuania', 'Netherlands', 'Poland', 'Romania']);
    await user.clear(input);
    await user.type(input, 'po');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Poland', 'Portugal']);
    const active = () => document.getElementById(input.getAttribute('aria-activedescendant') ?? '')?.textContent;
    expect(active()).toBe('Poland');
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe('Portugal');
    await user.keyboard('{Enter}');
    expect(last('country')).toBe('portugal');
    expect(input.value).toBe('Portugal');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape closes and puts the choice back; an emptied box clears the answer', async () => {
    const { user, last, onChange } = setup([element('selectbox', 'country', { fe_title: 'Country', items: countries() })], { initial: { country: 'spain' } });
    const input = screen.getByRole('combobox', { name: 'Country' }) as HTMLInputElement;
    expect(input.value).toBe('Spain');
    await user.click(input);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('option', { name: 'Spain' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('xyz'); // the box now says "Spainxyz": nothing matches
    expect(screen.getByRole('status').textContent).toBe('No results');
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.value).toBe('Spain');
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(input);
    await user.tab();
    expect(last('country')).toBe('');
  });

  it('with 5,000 items draws the first 200 and asks to type to narrow', async () => {
    const { user, last } = setup([element('selectbox', 'item', { fe_title: 'Item', items: manyItems(5000) })]);
    const input = screen.getByRole('combobox', { name: 'Item' });
    await user.click(input);
    expect(screen.getAllByRole('option')).toHaveLength(200);
    expect(screen.getByRole('status').textContent).toBe('Showing 200 of 5,000. Type to narrow the list.');
    await user.type(input, 'item 4999');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Item 4999']);
    expect(screen.getByRole('status').textContent).toBe('');
    await user.keyboard('{Enter}');
    expect(last('item')).toBe('item-4999');
  });
});

describe('picker', () => {
  const picker = () => element('picker', 'city', { fe_title: 'City', items: [node('Amsterdam', 'ams'), node('Brussels', 'bru'), node('Zürich', 'zrh')] });

  it('a button opens a dialog with a searchable list; Enter picks, closes and returns the focus', async () => {
    const { user, last } = setup([picker()]);
    const button = screen.getByRole('button', { name: 'City Choose…' });
    await user.click(button);
    const dialog = screen.getByRole('dialog', { name: 'City' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const search = within(dialog).getByRole('combobox', { name: 'Search' });
    expect(document.activeElement).toBe(search);
    await user.keyboard('zur'); // accents do not matter
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Zürich']);
    await user.keyboard('{Enter}');
    expect(last('city')).toBe('zrh');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'City Zürich' }));
  });

  it('Escape closes without a change; Tab stays inside; a click on an option picks it', async () => {
    const { user, last, onChange } = setup([picker()], { initial: { city: 'bru' } });
    await user.click(screen.getByRole('button', { name: 'City Brussels' }));
    const dialog = screen.getByRole('dialog', { name: 'City' });
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'City Brussels' }));
    await user.click(screen.getByRole('option', { name: 'Amsterdam' }));
    expect(last('city')).toBe('ams');
    await user.click(screen.getByRole('button', { name: 'City Amsterdam' }));
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(last('city')).toBe('');
  });
});

describe('required marks and errors', () => {
  it('marks required elements for the eye and for assistive technology', () => {
    setup(everyType().map((e) => ({ ...e, fe_is_required: true })));
    expect(screen.getByRole('textbox', { name: 'E-mail' }).getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('radiogroup', { name: 'Favourite colour' }).getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('tree', { name: 'Interests' }).getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Country' }).getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('checkbox', { name: 'I accept the terms' }).getAttribute('aria-required')).toBe('true');
    // groups and controls without aria-required say it in their name
    expect(screen.getByRole('group', { name: 'Colours you like (required)' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Days you attend (required)' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Budget (required)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'City (required) Choose…' })).toBeTruthy();
    for (const el of everyType()) expect(by(el.fe_name).querySelector('.ls-form-required')?.textContent, el.fe_name).toMatch(/^ \*/);
  });

  it('shows each error under its element, announces it and links it to the control', () => {
    const errors = { email: 'Please enter a valid email', interests: 'This field is required', colours: 'Pick one', city: 'Pick a city', budget: 'Out of range' };
    setup(everyType(), { errors });
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts.sort()).toEqual(Object.values(errors).sort());
    const email = screen.getByRole('textbox', { name: 'E-mail' });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    // the accessible description: what a screen reader reads after the name
    expect(screen.getByRole('textbox', { name: 'E-mail', description: '0 of 120 characters Please enter a valid email' })).toBe(email);
    expect(screen.getByRole('tree', { name: 'Interests', description: 'This field is required' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Colours you like', description: 'Pick one' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'City Choose…', description: 'Pick a city' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Budget', description: 'Out of range' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Notes' }).getAttribute('aria-invalid')).toBeNull();
  });
});

describe('read-only', () => {
  it('draws the answers as text, list values by their titles', () => {
    setup(everyType(), {
      readOnly: true,
      initial: {
        email: 'ada@example.com',
        notes: '',
        days: ['2025-05-12', '2025-06-02'],
        colour: 'green',
        colours: ['red', 'blue'],
        terms: true,
        interests: ['crm', 'erp', 'software'],
        main_interest: 'laser',
        country: 'netherlands',
        newsletter: false,
        budget: 35,
        city: 'gone', // no longer in the list: shown as stored
      },
    });
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    const answer = (name: string) => by(name).querySelector('dd')!.textContent;
    expect(by('email').querySelector('dt')!.textContent).toBe('E-mail');
    expect(answer('email')).toBe('ada@example.com');
    expect(answer('notes')).toBe('—');
    expect(answer('days')).toBe('Mon, 12 May 2025Mon, 2 June 2025');
    expect(answer('colour')).toBe('Green');
    expect([...by('colours').querySelectorAll('li')].map((l) => l.textContent)).toEqual(['Red', 'Blue']);
    expect(answer('terms')).toBe('Yes');
    expect(answer('main_interest')).toBe('Laser');
    expect(answer('country')).toBe('Netherlands');
    expect(answer('newsletter')).toBe('No');
    expect(answer('budget')).toBe('35');
    expect(answer('city')).toBe('gone');
  });
});

describe('answer shapes', () => {
  it('every onChange carries the type of its element', async () => {
    const { user, onChange } = setup(everyType());
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'a');
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'b');
    await user.click(document.querySelector('[data-date="2025-05-12"]')!);
    await user.click(screen.getByRole('radio', { name: 'Red' }));
    await user.click(within(screen.getByRole('group', { name: 'Colours you like' })).getByRole('checkbox', { name: 'Red' }));
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    await user.click(within(screen.getByRole('tree', { name: 'Interests' })).getByRole('treeitem', { name: 'Services' }));
    await user.click(within(screen.getByRole('tree', { name: 'Main interest' })).getByRole('treeitem', { name: 'Services' }));
    await user.type(screen.getByRole('combobox', { name: 'Country' }), 'spa{Enter}');
    await user.click(screen.getByRole('switch', { name: 'Newsletter' }));
    screen.getByRole('slider', { name: 'Budget' }).focus();
    await user.keyboard('{ArrowRight}');
    await user.click(screen.getByRole('button', { name: 'City Choose…' }));
    await user.click(screen.getByRole('option', { name: 'Brussels' }));
    const shapes = Object.fromEntries(
      onChange.mock.calls.map(([name, value]) => [name, Array.isArray(value) ? `array:${value.map((v: unknown) => typeof v).join(',')}` : typeof value]),
    );
    expect(shapes).toEqual({
      email: 'string',
      notes: 'string',
      days: 'array:string',
      colour: 'string',
      colours: 'array:string',
      terms: 'boolean',
      interests: 'array:string',
      main_interest: 'string',
      country: 'string',
      newsletter: 'boolean',
      budget: 'number',
      city: 'string',
    });
  });
});
