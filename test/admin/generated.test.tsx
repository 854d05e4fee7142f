import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, HttpError, Notification, TestMemoryRouter, useRouterProvider, type AuthProvider, type DataProvider, type I18nProvider } from 'react-admin';
import { defineAccountResource } from '../../resources/define';
import type { ResourceDeclaration } from '../../resources/types';
import { addConsoleTexts, addReactAdminTexts, i18n, i18nReady } from '../../admin/src/i18n';
import { ResourceRoutes } from '../../admin/src/generated/ResourceRoutes';
import { DeclarationsProvider } from '../../admin/src/generated/declarations';
import { permissionsFor } from '../../admin/src/generated/access';

/**
 * The generated screens from a declaration made here (not one of the product's): the list (search, sort, pages,
 * filters, rows and create button by permission), the create form (required errors, showWhen, the rule across fields,
 * a server field error, saved toast), the edit form (read-only fields, secrets, save) and delete (confirmation; no
 * button without the delete bit). The data provider is an in-memory fake; what is asserted is what a user sees and
 * what reached the data provider.
 */
const makers = defineAccountResource({
  name: 'makers',
  table: 'makers',
  prefix: 'mk',
  group: 'account_makers',
  fields: { mk_title: { kind: 'text', required: true, list: true, sort: true } },
  search: ['mk_title'],
});

const gadgets = defineAccountResource({
  name: 'gadgets',
  table: 'gadgets',
  prefix: 'g',
  group: 'account_gadgets',
  fields: {
    g_title: { kind: 'text', required: true, requiredMessage: 'error_title_required', list: true, sort: true },
    g_name: { kind: 'identifier', required: true, list: true, sort: true },
    g_kind: { kind: 'enum', options: ['small', 'large'], required: true, list: true, filter: true, sort: true },
    g_size: { kind: 'number', integer: true, min: 1, max: 10 },
    g_is_active: { kind: 'boolean', default: true, list: true },
    g_code: { kind: 'text', showWhen: { field: 'g_kind', values: ['large'] } },
    g_colour: { kind: 'colour' },
    g_makerid: { kind: 'reference', reference: 'makers' },
    g_notes: { kind: 'longtext' },
    g_options: { kind: 'json' },
    g_secret: { kind: 'secret' },
    g_status: { kind: 'enum', options: ['new', 'used'], readOnly: true, list: true },
  },
  search: ['g_title', 'g_name'],
  defaultSort: { field: 'g_title', order: 'ASC' },
  check(r) {
    if (r.g_kind === 'large' && !r.g_code) return { g_code: 'error_code_needed' };
    return undefined;
  },
});

/** A reference stored by another key than the id (as an event stores its owner member by au_userid). */
const tickets = defineAccountResource({
  name: 'tickets',
  table: 'tickets',
  prefix: 't',
  group: 'account_tickets',
  fields: {
    t_title: { kind: 'text', required: true, list: true, sort: true },
    t_maker_code: { kind: 'reference', reference: 'makers', referenceKey: 'mk_code', list: true },
  },
});

const DECLARATIONS: ResourceDeclaration[] = [gadgets, makers, tickets];
const registry = (name: string) => DECLARATIONS.find((d) => d.name === name);

type Row = Record<string, unknown> & { id: string };

/** An in-memory data provider with the API's list conventions (prefix q over the search fields, equality filters). */
function fakeDataProvider(seed: Record<string, Row[]>) {
  const tables: Record<string, Row[]> = Object.fromEntries(Object.entries(seed).map(([k, rows]) => [k, rows.map((r) => ({ ...r }))]));
  let next = 1000;
  const calls: { method: string; resource: string; params: Record<string, unknown> }[] = [];
  const search = (resource: string) => registry(resource)?.search ?? [];
  const provider: DataProvider = {
    async getList(resource, params) {
      calls.push({ method: 'getList', resource, params: params as unknown as Record<string, unknown> });
      const { q, ...equal } = (params.filter ?? {}) as Record<string, unknown>;
      let rows = (tables[resource] ?? []).filter((r) => Object.entries(equal).every(([k, v]) => r[k] === v));
      if (typeof q === 'string' && q)
        rows = rows.filter((r) =>
          search(resource).some((f) =>
            String(r[f] ?? '')
              .toLowerCase()
              .startsWith(q.toLowerCase()),
          ),
        );
      const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
      rows = [...rows].sort((a, b) => String(a[field]).localeCompare(String(b[field]), 'en', { numeric: true }) * (order === 'DESC' ? -1 : 1));
      const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
      return { data: rows.slice((page - 1) * perPage, page * perPage) as never[], total: rows.length };
    },
    async getOne(resource, params) {
      const row = (tables[resource] ?? []).find((r) => r.id === params.id);
      if (!row) throw new HttpError('Not found', 404, { code: 'not_found' });
      return { data: { ...row } as never };
    },
    async getMany(resource, params) {
      return { data: (tables[resource] ?? []).filter((r) => params.ids.includes(r.id)) as never[] };
    },
    async getManyReference() {
      return { data: [], total: 0 };
    },
    async create(resource, params) {
      calls.push({ method: 'create', resource, params: params as unknown as Record<string, unknown> });
      const data = params.data as Record<string, unknown>;
      if ((tables[resource] ?? []).some((r) => r.g_name === data.g_name))
        throw new HttpError('This name is already in use', 409, { code: 'name_taken', errors: { g_name: 'error_name_taken' } });
      const row: Row = { ...data, id: `g${next++}`, g_status: 'new', g_secret_set: !!data.g_secret };
      delete row.g_secret;
      (tables[resource] ??= []).push(row);
      return { data: row as never };
    },
    async update(resource, params) {
      calls.push({ method: 'update', resource, params: params as unknown as Record<string, unknown> });
      const rows = tables[resource];
      const i = rows.findIndex((r) => r.id === params.id);
      const data = { ...(params.data as Record<string, unknown>) };
      if ('g_secret' in data) {
        rows[i].g_secret_set = data.g_secret !== null;
        delete data.g_secret;
      }
      rows[i] = { ...rows[i], ...data };
      return { data: rows[i] as never };
    },
    async updateMany() {
      return { data: [] };
    },
    async delete(resource, params) {
      calls.push({ method: 'delete', resource, params: params as unknown as Record<string, unknown> });
      const rows = tables[resource];
      const i = rows.findIndex((r) => r.id === params.id);
      const [gone] = rows.splice(i, 1);
      return { data: gone as never };
    },
    async deleteMany() {
      return { data: [] };
    },
  };
  return { provider, tables, calls };
}

const MAKER_1 = '0b7c6f43-5a1f-4b7e-9a3c-1d2e3f4a5b61';
const MAKER_2 = '0b7c6f43-5a1f-4b7e-9a3c-1d2e3f4a5b62';
const MAKERS: Row[] = [
  { id: MAKER_1, mk_title: 'Acme Works' },
  { id: MAKER_2, mk_title: 'Bolt & Co' },
];

/** 30 gadgets: "Gadget 01" … "Gadget 30", alternating kinds. */
const GADGETS: Row[] = Array.from({ length: 30 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return {
    id: `g${n}`,
    g_title: `Gadget ${n}`,
    g_name: `gadget-${n}`,
    g_kind: i % 2 ? 'large' : 'small',
    g_code: i % 2 ? `C${n}` : null,
    g_is_active: true,
    g_status: 'used',
    g_secret_set: i === 0,
    g_options: null,
  };
});

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
  // Labels of the test's own resource, as its i18n file would give them.
  i18n.addResourceBundle(
    'en',
    'translation',
    {
      resources: {
        gadgets: {
          name_one: 'Gadget',
          name_other: 'Gadgets',
          fields: {
            g_title: 'Title',
            g_name: 'Name',
            g_kind: 'Kind',
            g_size: 'Size',
            g_is_active: 'Active',
            g_code: 'Code',
            g_colour: 'Colour',
            g_makerid: 'Maker',
            g_notes: 'Notes',
            g_options: 'Options',
            g_secret: 'Secret',
            g_status: 'Status',
          },
          options: { g_kind: { small: 'Small one', large: 'Large one' }, g_status: { new: 'Brand new', used: 'Second hand' } },
        },
      },
      error_code_needed: 'A large gadget needs a code',
    },
    true,
    true,
  );
});
afterEach(cleanup);

/** The routes a host gives the generated screens (the console mounts them the same way, below /console/{a}). */
function TestRoutes() {
  const { Routes, Route } = useRouterProvider();
  return (
    <Routes>
      <Route path="/:resource/*" element={<ResourceRoutes declarations={DECLARATIONS} />} />
    </Routes>
  );
}

function mount({
  bits = ['read', 'create', 'update', 'delete'],
  at = '/gadgets',
  makers = MAKERS,
  tickets = [] as Row[],
}: { bits?: string[]; at?: string; makers?: Row[]; tickets?: Row[] } = {}) {
  const data = fakeDataProvider({ gadgets: GADGETS, makers, tickets });
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => undefined,
    canAccess: async ({ action }) => permissionsFor(action).some((p) => bits.includes(p)),
  };
  const location = { current: '' };
  render(
    <TestMemoryRouter initialEntries={[at]} locationCallback={(l) => (location.current = l.pathname)}>
      <AdminContext dataProvider={data.provider} authProvider={authProvider} i18nProvider={i18nProvider}>
        <DeclarationsProvider registry={registry}>
          <TestRoutes />
          <Notification />
        </DeclarationsProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  const user = userEvent.setup();
  const input = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement | null;
  /** The text under an input (its helper text: the error when there is one). */
  const helper = (name: string) => (input(name)?.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '').replace(/\u200b/g, '').trim();
  /** An input once it is on screen. */
  const field = (name: string) =>
    waitFor(() => {
      const el = input(name);
      if (!el) throw new Error(`no input ${name}`);
      return el;
    });
  // The body rows and their first cells by plain selectors: waitFor runs these on every DOM change, and the role
  // queries over a 25-row table took so long on a slow machine that React could not finish the next page between them.
  const rows = () => [...document.querySelectorAll<HTMLElement>('table tbody tr')];
  const firstCells = () => rows().map((r) => r.querySelector('td')?.textContent ?? null);
  return { data, user, input, field, helper, rows, firstCells, location };
}

describe('generated list', () => {
  it('shows the declared columns with their labels, 25 rows a page, pages, prefix search back on page 1, and sorts by a sortable column', async () => {
    const { user, rows, firstCells, data } = mount();
    await waitFor(() => expect(rows()).toHaveLength(25));
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Title', 'Name', 'Kind', 'Active', 'Status']);
    expect(firstCells()[0]).toBe('Gadget 01');
    // Enum values show their translated labels.
    expect(within(rows()[0]).getByText('Small one')).toBeTruthy();
    expect(within(rows()[0]).getByText('Second hand')).toBeTruthy();

    // A pager, since there are two pages; the second has the last 5.
    await user.click(screen.getByRole('button', { name: /page 2/i }));
    await waitFor(() => expect(firstCells()[0]).toBe('Gadget 26'));
    expect(rows()).toHaveLength(5);

    // Search: prefix over the search fields, back to page 1; one page: no pager.
    await user.type(screen.getByPlaceholderText('Starts with…'), 'gadget 1');
    await waitFor(() =>
      expect(firstCells()).toEqual(['Gadget 10', 'Gadget 11', 'Gadget 12', 'Gadget 13', 'Gadget 14', 'Gadget 15', 'Gadget 16', 'Gadget 17', 'Gadget 18', 'Gadget 19']),
    );
    expect(screen.queryByRole('button', { name: /page 2/i })).toBeNull();
    expect(data.calls.filter((c) => c.method === 'getList' && c.resource === 'gadgets').at(-1)!.params).toMatchObject({
      filter: { q: 'gadget 1' },
      pagination: { page: 1, perPage: 25 },
    });

    // Sort by a sortable column (descending after the second click, since the list starts ascending by title).
    await user.click(screen.getByRole('button', { name: /sort by title/i }));
    await waitFor(() => expect(firstCells()[0]).toBe('Gadget 19'));
    // Columns without `sort` cannot be sorted.
    expect(screen.queryByRole('button', { name: /sort by active/i })).toBeNull();
    expect(within(screen.getAllByRole('columnheader')[3]).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: /sort by kind/i })).toBeTruthy();
  });

  it('filters by a `filter` field through the filter button', async () => {
    const { user, rows, data } = mount();
    await waitFor(() => expect(rows()).toHaveLength(25));
    await user.click(screen.getByRole('button', { name: /add filter/i }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Kind' }));
    await user.click(await screen.findByRole('combobox', { name: /Kind/ }));
    await user.click(await screen.findByRole('option', { name: 'Large one' }));
    await waitFor(() => expect(rows()).toHaveLength(15));
    expect(data.calls.filter((c) => c.method === 'getList' && c.resource === 'gadgets').at(-1)!.params).toMatchObject({ filter: { g_kind: 'large' } });
  });

  it('offers create and clickable rows only with the create and update/delete bits', async () => {
    const readOnly = mount({ bits: ['read'] });
    await waitFor(() => expect(readOnly.rows()).toHaveLength(25));
    expect(screen.queryByTestId('create-button')).toBeNull();
    await readOnly.user.click(readOnly.rows()[0]);
    await new Promise((r) => setTimeout(r, 100));
    expect(readOnly.location.current).toBe('/gadgets');
    cleanup();

    const deleter = mount({ bits: ['read', 'delete'] });
    await waitFor(() => expect(deleter.rows()).toHaveLength(25));
    expect(screen.queryByTestId('create-button')).toBeNull();
    await deleter.user.click(deleter.rows()[0]);
    await waitFor(() => expect(deleter.location.current).toBe('/gadgets/g01'));
  });
});

describe('generated create', () => {
  it('shows the declaration’s required errors under the inputs and saves nothing', async () => {
    const { user, helper, data, location } = mount();
    await user.click(await screen.findByTestId('create-button'));
    await waitFor(() => expect(location.current).toBe('/gadgets/new'));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helper('g_title')).toBe('Please enter a title'));
    expect(helper('g_name')).toBe('This field is required');
    expect(helper('g_kind')).toBe('This field is required');
    expect(data.calls.some((c) => c.method === 'create')).toBe(false);
  });

  it('checks kinds (identifier, number bounds, colour, JSON), shows a showWhen field and applies the rule across fields, then saves what the declaration writes and shows the saved toast', async () => {
    const { user, input, field, helper, data, location } = mount({ at: '/gadgets/new' });
    // Each value pasted in one input event, not typed key by key: what is checked is the values' kinds on save, and a
    // hundred keystrokes, each re-rendering the whole form, took over 30 s on a loaded machine (the suite's run).
    const fill = async (el: HTMLElement, text: string) => {
      await user.click(el);
      await user.paste(text);
    };
    await fill(await field('g_title'), 'Rocket');
    await fill(input('g_name')!, 'Rocket 1');
    await user.clear(input('g_size')!);
    await fill(input('g_size')!, '11');
    await fill(input('g_colour')!, 'red');
    await fill(input('g_options')!, '{not json');
    // The code field is there only for large gadgets.
    expect(input('g_code')).toBeNull();
    await user.click(screen.getByRole('combobox', { name: /Kind/ }));
    await user.click(await screen.findByRole('option', { name: 'Large one' }));
    await waitFor(() => expect(input('g_code')).not.toBeNull());
    // Only two makers: a plain select (a search appears above 15).
    expect((await screen.findByRole('combobox', { name: /Maker/ })).tagName).toBe('DIV');
    await user.click(screen.getByRole('combobox', { name: /Maker/ }));
    await user.click(await screen.findByRole('option', { name: 'Bolt & Co' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helper('g_name')).toBe('Use lower-case letters, digits, - and _, starting with a letter (at most 63)'));
    expect(helper('g_size')).toBe('This number is too large');
    expect(helper('g_colour')).toBe('Please enter a colour as #rrggbb');
    expect(helper('g_options')).toBe('Please enter a valid JSON object');
    expect(helper('g_code')).toBe('A large gadget needs a code'); // decl.check on the whole record
    expect(data.calls.some((c) => c.method === 'create')).toBe(false);

    await user.clear(input('g_name')!);
    await fill(input('g_name')!, 'rocket-1');
    await user.clear(input('g_size')!);
    await fill(input('g_size')!, '7');
    await user.clear(input('g_colour')!);
    await fill(input('g_colour')!, '#FF0000');
    await user.clear(input('g_options')!);
    await fill(input('g_options')!, '{"max_length": 5}');
    await fill(input('g_code')!, 'R-1');
    await fill(input('g_secret')!, 's3cret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(location.current).toBe('/gadgets'));
    const sent = data.calls.find((c) => c.method === 'create')!.params.data;
    expect(sent).toEqual({
      g_title: 'Rocket',
      g_name: 'rocket-1',
      g_kind: 'large',
      g_size: 7,
      g_is_active: true,
      g_code: 'R-1',
      g_colour: '#FF0000',
      g_makerid: MAKER_2,
      g_options: { max_length: 5 },
      g_secret: 's3cret',
    });
    expect((await screen.findByTestId('toast')).textContent).toContain('Saved');
    expect(screen.getByTestId('toast').textContent).toContain('Rocket has been saved.');
  });

  it('a field hidden by showWhen is not sent, and its rule does not apply', async () => {
    const { user, input, field, data, location } = mount({ at: '/gadgets/new' });
    await user.type(await field('g_title'), 'Pebble');
    await user.type(input('g_name')!, 'pebble');
    await user.click(screen.getByRole('combobox', { name: /Kind/ }));
    await user.click(await screen.findByRole('option', { name: 'Large one' }));
    await user.type(await field('g_code'), 'will-go');
    await user.click(screen.getByRole('combobox', { name: /Kind/ }));
    await user.click(await screen.findByRole('option', { name: 'Small one' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location.current).toBe('/gadgets'));
    const sent = data.calls.find((c) => c.method === 'create')!.params.data as Record<string, unknown>;
    expect(sent.g_code).toBeNull();
    expect(sent).not.toHaveProperty('g_secret');
  });

  it('shows a server field error (body.errors) under its input and stays on the form', async () => {
    const { user, input, field, helper, location } = mount({ at: '/gadgets/new' });
    await user.type(await field('g_title'), 'Copy');
    await user.type(input('g_name')!, 'gadget-05');
    await user.click(screen.getByRole('combobox', { name: /Kind/ }));
    await user.click(await screen.findByRole('option', { name: 'Small one' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helper('g_name')).toBe('This name is already in use'));
    expect(location.current).toBe('/gadgets/new');
  });

  it('a reference with more than 15 records to choose from offers a search (on the server, by q)', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ id: `0b7c6f43-5a1f-4b7e-9a3c-1d2e3f4a5c${String(i).padStart(2, '0')}`, mk_title: `Maker ${i + 1}` }));
    const { user, input, field, data } = mount({ at: '/gadgets/new', makers: many });
    // Once the makers are counted: a search field (a text input with the combobox role).
    // (The search select is its own chunk: its first load can take a while on a busy machine.)
    await waitFor(() => expect(input('g_makerid')?.getAttribute('role')).toBe('combobox'), { timeout: 20_000 });
    const search = await field('g_makerid');
    expect(search.tagName).toBe('INPUT'); // a text field to type in, not a plain select
    await user.type(search, 'Maker 1');
    await waitFor(() => expect(data.calls.filter((c) => c.resource === 'makers').at(-1)!.params).toMatchObject({ filter: { q: 'Maker 1' } }));
    await user.click(await screen.findByRole('option', { name: 'Maker 12' }));
    expect(search.value).toBe('Maker 12');
  });

  it('a reference stored by another key shows its record beyond the first 100, in the list and in the picker', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      id: `0b7c6f43-5a1f-4b7e-9a3c-1d2e3f4b${String(i).padStart(4, '0')}`,
      mk_title: `Maker ${String(i + 1).padStart(3, '0')}`,
      mk_code: `code-${i + 1}`,
    }));
    const ticket = { id: 't1', t_title: 'Stand A', t_maker_code: 'code-115' };
    const list = mount({ at: '/tickets', makers: many, tickets: [ticket] });
    await waitFor(() => expect(list.rows()[0]?.textContent).toContain('Maker 115'));
    // one list of 100 for the page, then the one record by its key
    expect(list.data.calls.filter((c) => c.resource === 'makers').map((c) => c.params.filter)).toContainEqual({ mk_code: 'code-115' });
    cleanup();
    const edit = mount({ at: '/tickets/t1', makers: many, tickets: [ticket] });
    await waitFor(() => expect(edit.input('t_maker_code')?.value).toBe('Maker 115'), { timeout: 20_000 });
  });

  it('cancel goes back to the list', async () => {
    const { user, location } = mount({ at: '/gadgets/new' });
    await user.click(await screen.findByTestId('cancel'));
    await waitFor(() => expect(location.current).toBe('/gadgets'));
  });
});

describe('generated edit and delete', () => {
  it('shows read-only fields as text, keeps a secret unless replaced or cleared, and saves the update schema’s fields', async () => {
    const { user, input, data, location } = mount({ at: '/gadgets/g01' });
    await waitFor(() => expect(input('g_title')?.value).toBe('Gadget 01'));
    expect(screen.getByTestId('readonly-g_status').textContent).toContain('Second hand');
    expect(input('g_status')).toBeNull();
    expect(screen.getByTestId('secret-g_secret-status').textContent).toBe('Set');
    expect(input('g_secret')).toBeNull(); // write-only: nothing to show

    await user.clear(input('g_title')!);
    await user.type(input('g_title')!, 'Gadget One');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location.current).toBe('/gadgets'));
    let sent = data.calls.filter((c) => c.method === 'update').at(-1)!.params.data as Record<string, unknown>;
    expect(sent.g_title).toBe('Gadget One');
    expect(sent).not.toHaveProperty('g_secret'); // left alone: the stored one stays
    expect(sent).not.toHaveProperty('g_status'); // read-only: never sent
    expect(sent).not.toHaveProperty('id');
    expect(await screen.findByTestId('toast')).toBeTruthy();

    // Clear the secret.
    cleanup();
    const again = mount({ at: '/gadgets/g01' });
    await waitFor(() => expect(again.input('g_title')?.value).toBe('Gadget 01'));
    await again.user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByTestId('secret-g_secret-status').textContent).toBe('Cleared when saved');
    await again.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(again.location.current).toBe('/gadgets'));
    sent = again.data.calls.filter((c) => c.method === 'update').at(-1)!.params.data as Record<string, unknown>;
    expect(sent.g_secret).toBeNull();
  });

  it('an emptied required field is refused under its input', async () => {
    const { user, input, helper, data } = mount({ at: '/gadgets/g02' });
    await waitFor(() => expect(input('g_title')?.value).toBe('Gadget 02'));
    await user.clear(input('g_title')!);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helper('g_title')).toBe('Please enter a title'));
    expect(data.calls.some((c) => c.method === 'update')).toBe(false);
  });

  it('deletes after a confirmation, with the delete bit, and goes back to the list', async () => {
    const { user, input, data, location, rows } = mount({ at: '/gadgets/g03' });
    await waitFor(() => expect(input('g_title')?.value).toBe('Gadget 03'));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Gadget 03');
    expect(data.calls.some((c) => c.method === 'delete')).toBe(false); // not before confirming
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(location.current).toBe('/gadgets'));
    expect(data.calls.find((c) => c.method === 'delete')!.params.id).toBe('g03');
    await waitFor(() => expect(rows().length).toBe(25));
    expect(data.tables.gadgets.some((g) => g.id === 'g03')).toBe(false);
  });

  it('without the delete bit there is no delete button; without update no save', async () => {
    const noDelete = mount({ bits: ['read', 'update'], at: '/gadgets/g04' });
    await waitFor(() => expect(noDelete.input('g_title')?.value).toBe('Gadget 04'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    cleanup();

    const onlyDelete = mount({ bits: ['read', 'delete'], at: '/gadgets/g04' });
    await waitFor(() => expect(onlyDelete.input('g_title')?.value).toBe('Gadget 04'));
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(onlyDelete.input('g_title')!.disabled).toBe(true);
  });
});
