import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { FormDesigner } from '../../admin/src/formElements/FormDesigner';
import { suggestName, validateDraft, newDraft } from '../../admin/src/formElements/designerModel';
import { addConsoleTexts, i18nReady } from '../../admin/src/i18n';
import { buildListTree } from '../../resources/listItems';
import { ELEMENT_TYPES, isListType, type ElementType } from '../../resources/answers';

/**
 * The form designer (admin/src/formElements) in jsdom against a fake account API behind `fetch`: what a user sees
 * and what the API was sent.
 */

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addConsoleTexts();
});

const ACCOUNT = '0b7f3c1e-8a8e-4f7e-9a53-0f7f3b9d2c11';
const FORM = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const COLOURS = '2a000000-0000-4000-8000-000000000001';
const REGIONS = '2a000000-0000-4000-8000-000000000002';
const id = (n: number) => `3b000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Call {
  method: string;
  path: string;
  body?: unknown;
}
let calls: Call[];
let elements: Record<string, unknown>[];
/** Answers by "METHOD path" that replace the fake's own (an error to show). */
let override: Record<string, { status: number; body: unknown }>;
let created: number;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const base = `/api/1/accounts/${ACCOUNT}`;

function element(n: number, type: ElementType, name: string, title: string, extra: Record<string, unknown> = {}) {
  return {
    fe_id: id(n),
    id: id(n),
    fe_formid: FORM,
    fe_title: title,
    fe_name: name,
    fe_external_name: null,
    fe_type: type,
    fe_listid: null,
    fe_order: n,
    fe_is_required: false,
    fe_options: null,
    ...extra,
  };
}

const itemRows: Record<string, { li_id: string; li_listid: string; li_parentid: string | null; li_title: string; li_value: string; li_order: number }[]> = {
  [COLOURS]: [
    { li_id: id(901), li_listid: COLOURS, li_parentid: null, li_title: 'Red', li_value: 'red', li_order: 0 },
    { li_id: id(902), li_listid: COLOURS, li_parentid: null, li_title: 'Green', li_value: 'green', li_order: 1 },
  ],
  [REGIONS]: [
    { li_id: id(911), li_listid: REGIONS, li_parentid: null, li_title: 'Europe', li_value: 'europe', li_order: 0 },
    { li_id: id(912), li_listid: REGIONS, li_parentid: id(911), li_title: 'Benelux', li_value: 'benelux', li_order: 0 },
  ],
};

function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), 'http://localhost');
  const method = init.method ?? 'GET';
  const body = init.body ? JSON.parse(String(init.body)) : undefined;
  const path = url.pathname + url.search;
  calls.push({ method, path: decodeURIComponent(path), body });
  const forced = override[`${method} ${url.pathname}`];
  if (forced) return Promise.resolve(json(forced.status, forced.body));
  if (url.pathname === '/api/1/auth/me') return Promise.resolve(json(200, {}));
  if (url.pathname === `${base}/forms/${FORM}/graph`) {
    const withItems = elements.map((e) => (e.fe_listid ? { ...e, items: buildListTree(itemRows[e.fe_listid as string]) } : e));
    return Promise.resolve(json(200, { form: { f_id: FORM, f_title: 'Registration', f_name: 'registration' }, elements: withItems }));
  }
  if (url.pathname === `${base}/lists`)
    return Promise.resolve(
      json(200, [
        { id: COLOURS, l_id: COLOURS, l_title: 'Colours', l_name: 'colours' },
        { id: REGIONS, l_id: REGIONS, l_title: 'Regions', l_name: 'regions' },
      ]),
    );
  const tree = new RegExp(`^${base}/lists/([^/]+)/tree$`).exec(url.pathname);
  if (tree) return Promise.resolve(json(200, buildListTree(itemRows[tree[1]] ?? [])));
  if (url.pathname === `${base}/form-elements/order` && method === 'PUT')
    return Promise.resolve(
      json(
        200,
        body.ids.map((i: string) => elements.find((e) => e.fe_id === i)),
      ),
    );
  if (url.pathname === `${base}/form-elements` && method === 'POST') {
    created += 1;
    const record = { ...body, fe_id: id(500 + created), id: id(500 + created), fe_order: 99 };
    return Promise.resolve(json(201, record));
  }
  const one = new RegExp(`^${base}/form-elements/([^/]+)$`).exec(url.pathname);
  if (one && method === 'PUT') return Promise.resolve(json(200, { ...elements.find((e) => e.fe_id === one[1]), ...body }));
  if (one && method === 'DELETE') return Promise.resolve(json(200, { fe_id: one[1] }));
  return Promise.resolve(json(404, { code: 'not_found', message: `no fake for ${method} ${path}` }));
}

/** Three columns (1200 px and up), as on a desktop. */
function wideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: /min-width:\s*(1200|768)px/.test(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

beforeEach(() => {
  calls = [];
  override = {};
  created = 0;
  elements = [
    element(1, 'text', 'first_name', 'First name', { fe_is_required: true }),
    element(2, 'text', 'company', 'Company', { fe_options: { max_length: 80 } }),
    element(3, 'checkbox_tree', 'regions', 'Regions', { fe_listid: REGIONS }),
    element(4, 'toggle', 'newsletter', 'Newsletter', { fe_options: { default: true } }),
  ];
  document.cookie = 'ls.csrf-token=test-token; path=/';
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  wideScreen();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderDesigner(canEdit = true) {
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <FormDesigner accountId={ACCOUNT} formId={FORM} canEdit={canEdit} />
    </AdminContext>,
  );
  const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
  await screen.findByRole('list', { name: 'Elements of the form, in order' });
  const list = () => screen.getByRole('list', { name: 'Elements of the form, in order' });
  const rowTitles = () =>
    within(list())
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.fd-row-title')!.textContent!.replace(/ \*.*$/, ''));
  const editor = () => screen.getByRole('region', { name: 'Element' });
  const preview = () => screen.getByRole('region', { name: 'Preview' });
  const field = (label: string) => within(editor()).getByRole('textbox', { name: label }) as HTMLInputElement;
  const writes = () => calls.filter((c) => c.method !== 'GET');
  return { user, list, rowTitles, editor, preview, field, writes };
}

type Ui = Awaited<ReturnType<typeof renderDesigner>>;

// (queries scoped to a part of the page: getByRole over the whole page, preview included, is slow in jsdom)
async function addElement(ui: Ui, typeLabel: string) {
  await ui.user.click(within(document.querySelector<HTMLElement>('.fd-panel-head')!).getByRole('button', { name: 'Add element' }));
  await ui.user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: typeLabel }));
}

async function pickList(ui: Ui, title: string) {
  // the picker loads with the first list-type element
  const combo = await within(ui.editor()).findByRole('combobox', { name: /List/ });
  await ui.user.click(combo);
  await ui.user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: new RegExp(`^${title}`) }));
}

async function replace(ui: Ui, input: HTMLElement, text: string) {
  await ui.user.clear(input);
  if (text) await ui.user.type(input, text);
}

describe('form designer', () => {
  it('lists the elements in order with title, data name, type and required mark, and selects the first', async () => {
    const ui = await renderDesigner();
    expect(ui.rowTitles()).toEqual(['First name', 'Company', 'Regions', 'Newsletter']);
    const first = within(ui.list()).getAllByRole('listitem')[0];
    expect(first.textContent).toContain('first_name');
    expect(first.textContent).toContain('Text');
    expect(first.textContent).toContain('(required)');
    expect(within(ui.list()).getAllByRole('listitem')[2].textContent).toContain('Checkbox tree');
    expect(ui.field('Title').value).toBe('First name');
    // the graph's list trees are used as they are: no list is fetched again
    expect(calls.filter((c) => c.path.endsWith('/tree'))).toEqual([]);
  });

  it('adds an element of each of the 12 types with its options and saves each', async () => {
    const ui = await renderDesigner();
    const labels: Record<ElementType, string> = {
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
    };
    const expected: Record<string, unknown>[] = [];
    for (const type of ELEMENT_TYPES) {
      await addElement(ui, labels[type]);
      const title = ui.field('Title');
      // a new element starts with its type's name, selected so typing replaces it; the data name follows the title
      expect(title.value).toBe(labels[type]);
      await waitFor(() => expect(document.activeElement).toBe(title));
      await ui.user.paste(`Ask ${type}`);
      expect(ui.field('Data name').value).toBe(suggestName(`Ask ${type}`));
      let options: Record<string, unknown> | null = null;
      let listId: string | null = null;
      if (type === 'text' || type === 'textarea') {
        await ui.user.type(ui.field('Maximum length'), '120');
        options = { max_length: 120 };
      } else if (type === 'slider') {
        await ui.user.type(ui.field('Minimum'), '1');
        await ui.user.type(ui.field('Maximum'), '5');
        await ui.user.type(ui.field('Step'), '0,5'); // a decimal comma is read as a point
        options = { min: 1, max: 5, step: 0.5 };
      } else if (type === 'toggle' || type === 'checkbox') {
        await ui.user.click(within(ui.editor()).getByRole('switch', { name: 'On by default' }));
        options = { default: true };
      } else if (type === 'date_selector_days') {
        const days = within(ui.editor()).getByRole('group', { name: 'Days to choose from' });
        for (const day of ['2026-05-13', '2026-05-12']) {
          fireEvent.change(within(days).getByLabelText('Date'), { target: { value: day } });
          await ui.user.click(within(days).getByRole('button', { name: 'Add' }));
        }
        const disabled = within(ui.editor()).getByRole('group', { name: 'Days shown but not available' });
        fireEvent.change(within(disabled).getByLabelText('Date'), { target: { value: '2026-05-13' } });
        await ui.user.click(within(disabled).getByRole('button', { name: 'Add' }));
        expect(
          within(days)
            .getAllByRole('listitem')
            .map((li) => li.querySelector('time')!.getAttribute('datetime')),
        ).toEqual(['2026-05-12', '2026-05-13']);
        options = { days: ['2026-05-12', '2026-05-13'], disabled: ['2026-05-13'] };
      } else {
        expect(isListType(type)).toBe(true);
        await pickList(ui, type === 'checkbox_tree' || type === 'radio_tree' ? 'Regions' : 'Colours');
        listId = type === 'checkbox_tree' || type === 'radio_tree' ? REGIONS : COLOURS;
      }
      if (type === 'textarea') await ui.user.click(within(ui.editor()).getByRole('checkbox', { name: 'Required' }));
      await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
      await within(ui.editor()).findByText('Saved');
      expected.push({
        fe_formid: FORM,
        fe_title: `Ask ${type}`,
        fe_name: suggestName(`Ask ${type}`),
        fe_external_name: null,
        fe_type: type,
        fe_listid: listId,
        fe_is_required: type === 'textarea',
        fe_options: options,
      });
    }
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual(expected);
    expect(ui.rowTitles()).toHaveLength(16);
    // each new element is stored last, where it is shown: no reorder was needed
    expect(calls.filter((c) => c.path.endsWith('/order'))).toEqual([]);
  }, 120_000);

  it('requires a list for the list types and shows the error on the list picker; the typed input stays', async () => {
    const ui = await renderDesigner();
    await addElement(ui, 'Select box');
    await ui.user.keyboard('Favourite colour');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    const picker = await within(ui.editor()).findByRole('combobox', { name: /List/ });
    expect(picker.getAttribute('aria-invalid')).toBe('true');
    expect(within(ui.editor()).getByText('This element type needs a list')).toBeTruthy();
    expect(ui.writes()).toEqual([]);
    expect(ui.field('Title').value).toBe('Favourite colour');
    // the list row shows that something is wrong and unsaved
    expect(within(ui.list()).getAllByRole('listitem')[4].querySelector('.fd-row-error')).toBeTruthy();

    await pickList(ui, 'Colours');
    expect(within(ui.editor()).queryByText('This element type needs a list')).toBeNull();
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    await within(ui.editor()).findByText('Saved');
    expect(ui.writes()).toHaveLength(1);
    expect(ui.writes()[0].body).toMatchObject({ fe_type: 'selectbox', fe_listid: COLOURS, fe_name: 'favourite_colour' });
    // the list's items were loaded once for the preview
    expect(calls.filter((c) => c.path.endsWith('/tree'))).toHaveLength(1);
    await within(ui.preview()).findByRole('option', { name: 'Green' });
  });

  it("checks with the declaration's rules before sending: identifier, e-mail only on text, slider range", async () => {
    const ui = await renderDesigner();
    await ui.user.click(within(ui.list()).getByRole('button', { name: /^Newsletter/ }));
    await replace(ui, ui.field('Data name'), 'email');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    expect(await within(ui.editor()).findByText('The data name email is only allowed on a text element')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(ui.field('Data name')));
    await replace(ui, ui.field('Data name'), '1st');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    expect(await within(ui.editor()).findByText(/^Use lower-case letters/)).toBeTruthy();
    await replace(ui, ui.field('Data name'), 'company'); // another element of the form has it
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    expect(await within(ui.editor()).findByText('This name is already in use')).toBeTruthy();
    expect(ui.writes()).toEqual([]);

    await addElement(ui, 'Slider');
    await ui.user.type(ui.field('Minimum'), '10');
    await ui.user.type(ui.field('Maximum'), '5');
    await ui.user.type(ui.field('Step'), 'x');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    expect(await within(ui.editor()).findByText('The maximum must be more than the minimum')).toBeTruthy();
    expect(within(ui.editor()).getByText('Please enter a valid number')).toBeTruthy();
    expect(ui.writes()).toEqual([]);
  });

  it('shows 409 name_taken from the API on the data name field and keeps what was typed', async () => {
    const ui = await renderDesigner();
    override[`PUT ${base}/form-elements/${id(2)}`] = { status: 409, body: { code: 'name_taken', message: 'This name is already in use', fields: { fe_name: 'error_name_taken' } } };
    await ui.user.click(within(ui.list()).getByRole('button', { name: /^Company/ }));
    await replace(ui, ui.field('Title'), 'Organisation');
    await replace(ui, ui.field('Data name'), 'organisation');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    expect(await within(ui.editor()).findByText('This name is already in use')).toBeTruthy();
    expect(ui.field('Data name').getAttribute('aria-invalid')).toBe('true');
    expect(ui.field('Title').value).toBe('Organisation');
    expect(ui.field('Data name').value).toBe('organisation');
    await waitFor(() => expect(document.activeElement).toBe(ui.field('Data name')));
    // a failure without a field shows above the buttons; the draft survives it too
    override[`PUT ${base}/form-elements/${id(2)}`] = { status: 503, body: { code: 'database_unavailable', message: 'Try again' } };
    await replace(ui, ui.field('Data name'), 'org');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    expect(await within(ui.editor()).findByText('The service is briefly unavailable; please try again in a moment')).toBeTruthy();
    expect(ui.field('Data name').value).toBe('org');
    delete override[`PUT ${base}/form-elements/${id(2)}`];
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Save' }));
    await within(ui.editor()).findByText('Saved');
    expect(ui.rowTitles()[1]).toBe('Organisation');
  });

  it('reorders by keyboard: Space lifts, arrows move, Space drops, one call of the order route with the new ids', async () => {
    const ui = await renderDesigner();
    const handle = within(ui.list()).getByRole('button', { name: 'Move First name' });
    expect(handle.getAttribute('aria-describedby')).toBeTruthy();
    handle.focus();
    await ui.user.keyboard(' ');
    expect(screen.getByTestId('fd-announcer').textContent).toMatch(/First name picked up, position 1 of 4/);
    expect(handle.getAttribute('aria-pressed')).toBe('true');
    await ui.user.keyboard('{ArrowDown}{ArrowDown}');
    expect(ui.rowTitles()).toEqual(['Company', 'Regions', 'First name', 'Newsletter']);
    expect(document.activeElement).toBe(within(ui.list()).getByRole('button', { name: 'Move First name' }));
    expect(ui.writes()).toEqual([]); // nothing stored while it is lifted
    await ui.user.keyboard(' ');
    await waitFor(() => expect(ui.writes()).toHaveLength(1));
    expect(ui.writes()[0]).toEqual({ method: 'PUT', path: `${base}/form-elements/order`, body: { ids: [id(2), id(3), id(1), id(4)] } });
    await waitFor(() => expect(screen.getByTestId('fd-announcer').textContent).toMatch(/The new order is saved/));

    // Escape puts it back without a call
    const newsletter = within(ui.list()).getByRole('button', { name: 'Move Newsletter' });
    newsletter.focus();
    await ui.user.keyboard(' {ArrowUp}{ArrowUp}');
    expect(ui.rowTitles()).toEqual(['Company', 'Newsletter', 'Regions', 'First name']);
    await ui.user.keyboard('{Escape}');
    expect(ui.rowTitles()).toEqual(['Company', 'Regions', 'First name', 'Newsletter']);
    expect(screen.getByTestId('fd-announcer').textContent).toMatch(/Move cancelled; Newsletter is back at position 4/);
    expect(ui.writes()).toHaveLength(1);

    // Alt+Up moves one place at once: one more call
    await ui.user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await waitFor(() => expect(ui.writes()).toHaveLength(2));
    expect(ui.writes()[1].body).toEqual({ ids: [id(2), id(3), id(4), id(1)] });
    expect(ui.rowTitles()).toEqual(['Company', 'Regions', 'Newsletter', 'First name']);
  });

  it('rolls the order back when the order route refuses it', async () => {
    const ui = await renderDesigner();
    override[`PUT ${base}/form-elements/order`] = {
      status: 400,
      body: { code: 'order_invalid', message: 'Give every record of the parent, each once', fields: { ids: 'error_order_incomplete' } },
    };
    within(ui.list()).getByRole('button', { name: 'Move Regions' }).focus();
    await ui.user.keyboard(' {ArrowUp}{ArrowUp} ');
    expect(ui.writes()).toHaveLength(1);
    expect(ui.writes()[0].body).toEqual({ ids: [id(3), id(1), id(2), id(4)] });
    await waitFor(() => expect(ui.rowTitles()).toEqual(['First name', 'Company', 'Regions', 'Newsletter']));
    expect(screen.getByTestId('fd-announcer').textContent).toMatch(/could not be saved; the previous order is back. The order could not be saved; reload and try again/);
  });

  it('asks for confirmation before deleting', async () => {
    const ui = await renderDesigner();
    await ui.user.click(within(ui.list()).getByRole('button', { name: 'Delete Company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the element "Company"?' });
    await ui.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(ui.writes()).toEqual([]);
    expect(ui.rowTitles()).toContain('Company');

    await ui.user.click(within(ui.list()).getByRole('button', { name: 'Delete Company' }));
    await ui.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(ui.rowTitles()).toEqual(['First name', 'Regions', 'Newsletter']));
    expect(ui.writes()).toEqual([{ method: 'DELETE', path: `${base}/form-elements/${id(2)}`, body: undefined }]);
    // The preview draws structural changes through useDeferredValue (DesignerPreview.tsx): a moment after the list.
    await waitFor(() => expect(within(ui.preview()).queryByText('Company')).toBeNull());

    // a new, never saved element: confirmed too, and no call
    await addElement(ui, 'Text');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Delete' }));
    const dialog2 = await screen.findByRole('dialog', { name: 'Delete the element "Text"?' });
    expect(within(dialog2).getByText('This element was never saved; what you typed is discarded.')).toBeTruthy();
    await ui.user.click(within(dialog2).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(ui.rowTitles()).toEqual(['First name', 'Regions', 'Newsletter']));
    expect(ui.writes()).toHaveLength(1);
  });

  it('shows the typed title and options in the preview without saving', async () => {
    const ui = await renderDesigner();
    await ui.user.click(within(ui.list()).getByRole('button', { name: /^Company/ }));
    await replace(ui, ui.field('Title'), 'Organisation name');
    expect(await within(ui.preview()).findByRole('textbox', { name: 'Organisation name' })).toBeTruthy();
    await replace(ui, ui.field('Maximum length'), '12');
    expect(await within(ui.preview()).findByText('0 of 12 characters')).toBeTruthy();
    await ui.user.click(within(ui.editor()).getByRole('checkbox', { name: 'Required' }));
    await waitFor(() =>
      expect(
        within(ui.preview())
          .getByRole('textbox', { name: /Organisation name/ })
          .getAttribute('aria-required'),
      ).toBe('true'),
    );
    expect(ui.writes()).toEqual([]);
    // the list row says it is not saved; Discard goes back to what is stored
    expect(within(ui.list()).getAllByRole('listitem')[1].textContent).toContain('unsaved changes');
    await ui.user.click(within(ui.editor()).getByRole('button', { name: 'Discard changes' }));
    expect(await within(ui.preview()).findByRole('textbox', { name: 'Company' })).toBeTruthy();
    // the type too: the preview draws the new widget with the element's list
    await ui.user.click(within(ui.list()).getByRole('button', { name: /^Regions/ }));
    expect(within(ui.preview()).getByRole('tree', { name: 'Regions' })).toBeTruthy();
  });

  it('read-only (canEdit false): no add, move, delete or input; the settings as text and the preview', async () => {
    const ui = await renderDesigner(false);
    expect(screen.queryByRole('button', { name: 'Add element' })).toBeNull();
    expect(within(ui.list()).queryAllByRole('button', { name: /^Move|^Delete/ })).toEqual([]);
    expect(within(ui.editor()).queryAllByRole('textbox')).toEqual([]);
    expect(within(ui.editor()).queryAllByRole('button')).toEqual([]);
    expect(within(ui.editor()).queryAllByRole('checkbox')).toEqual([]);
    expect(within(ui.editor()).getAllByText('first_name')).toHaveLength(2); // data name, and external name by default
    await ui.user.click(within(ui.list()).getByRole('button', { name: /^Company/ }));
    expect(within(ui.editor()).getByText('80')).toBeTruthy();
    expect(within(ui.preview()).getByRole('textbox', { name: 'Company' })).toBeTruthy();
    expect(screen.getByText('You can look at this form but not change it.')).toBeTruthy();
  });

  it('says so when the form cannot be loaded, and tries again', async () => {
    override[`GET ${base}/forms/${FORM}/graph`] = { status: 503, body: { code: 'database_unavailable' } };
    render(
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <FormDesigner accountId={ACCOUNT} formId={FORM} canEdit />
      </AdminContext>,
    );
    expect(await screen.findByText('The form could not be loaded.')).toBeTruthy();
    delete override[`GET ${base}/forms/${FORM}/graph`];
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Elements of the form, in order' })).toBeTruthy();
  });
});

describe('designer model', () => {
  it('suggests identifiers from titles', () => {
    expect(suggestName('Company name')).toBe('company_name');
    expect(suggestName('Ça va? Één keer!')).toBe('ca_va_een_keer');
    expect(suggestName('2nd choice')).toBe('f_2nd_choice');
    expect(suggestName('E-mail', ['e-mail'])).toBe('e-mail_2');
    expect(suggestName('!!!')).toBe('');
    expect(suggestName('x'.repeat(80))).toHaveLength(63);
  });

  it("validates a draft with the declaration's schema and check", () => {
    const d = newDraft('new-1', 'picker', 'Pick', []);
    expect(validateDraft(d, [d], FORM)).toEqual({ fe_listid: 'error_list_required' });
    expect(validateDraft({ ...d, listId: COLOURS }, [d], FORM)).toEqual({});
    expect(validateDraft({ ...d, title: ' ' }, [d], FORM).fe_title).toBe('error_required');
    const t = newDraft('new-2', 'text', 'Text', []);
    expect(validateDraft({ ...t, options: { ...t.options, max_length: '0' } }, [t], FORM)).toEqual({ opt_max_length: 'error_number_too_small' });
    expect(validateDraft({ ...t, options: { ...t.options, max_length: '2.5' } }, [t], FORM)).toEqual({ opt_max_length: 'error_whole_number' });
  });
});
