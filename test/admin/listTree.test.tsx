import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { ListTreeEditor, ROW_HEIGHT } from '../../admin/src/lists/ListTreeEditor';
import { planIndent, planMove, planOutdent, planShift, visibleRows, type ListItemNode } from '../../admin/src/lists/listTree';
import { setSession, type Session } from '../../admin/src/providers/session';
import { useSession } from '../../admin/src/layout/useSession';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { grantsOf } from '../../resources/permissions';

const ACCOUNT = 'acc-1';
const LIST = 'list-1';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts(); // these screens live in the console, which loads its texts
});

const node = (id: string, title: string, children: ListItemNode[] = []): ListItemNode => ({
  li_id: id,
  li_title: title,
  li_value: title.toLowerCase().replace(/\s+/g, '_'),
  children,
});
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** What the fake API saw: method, path below /api/1, and the JSON body. */
let calls: { method: string; path: string; body?: unknown }[];
let tree: ListItemNode[];
/** The next answer of a call, by "METHOD path" (default: a plausible success). */
let answers: Record<string, Response>;

function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = String(input);
  const path = url.replace(/^\/api\/1/, '');
  const method = init.method ?? 'GET';
  const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body instanceof FormData ? init.body : undefined;
  calls.push({ method, path, body });
  const canned = answers[`${method} ${path}`];
  if (canned) return Promise.resolve(canned);
  if (path === `/accounts/${ACCOUNT}/lists/${LIST}/tree`) return Promise.resolve(json(200, tree));
  if (method === 'PUT' && path.endsWith('/list-items/order')) return Promise.resolve(json(200, []));
  const item = path.match(/\/list-items\/([^/]+)$/);
  if (item && method === 'PUT')
    return Promise.resolve(json(200, { id: item[1], li_id: item[1], li_title: (body as { li_title?: string }).li_title ?? 'x', li_value: 'x', li_parentid: null }));
  if (item && method === 'DELETE') return Promise.resolve(json(200, { id: item[1] }));
  if (method === 'POST' && path.endsWith('/list-items')) {
    const b = body as { li_title: string; li_parentid: string | null };
    return Promise.resolve(json(201, { id: 'new-1', li_id: 'new-1', li_title: b.li_title, li_value: b.li_title.toLowerCase(), li_parentid: b.li_parentid }));
  }
  return Promise.resolve(json(404, { code: 'not_found' }));
}

const rootSession = (): Session => ({
  code: 'ok',
  user: { id: 'me', u_id: 'me', u_first_name: 'Me', u_last_name: '', u_email: 'me@example.com', u_role: 'root', u_is_verified: true, u_is_enabled: true },
  permissions: grantsOf('root'),
  accounts: [],
  settings: { passwordMinLength: 4 },
});

const readOnlySession = (): Session => ({
  code: 'ok',
  user: { id: 'm', u_id: 'm', u_first_name: 'Mem', u_last_name: '', u_email: 'm@example.com', u_role: 'member', u_is_verified: true, u_is_enabled: true },
  // The member's own grants: account_lists read only (ops took the other bits away).
  permissions: { ...grantsOf('member'), account_lists: 1 },
  roleGrants: { member: { ...grantsOf('member'), account_lists: 1 } },
  accounts: [{ a_id: ACCOUNT, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: 'member' }],
  settings: { passwordMinLength: 4 },
});

beforeEach(() => {
  calls = [];
  answers = {};
  tree = [node('fruit', 'Fruit', [node('apple', 'Apple'), node('pear', 'Pear')]), node('veg', 'Vegetables', [node('kale', 'Kale')])];
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  setSession(rootSession());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Shows once the session has loaded, so a missing button is not just a session not loaded yet. */
const SessionProbe = () => (useSession().session ? <span data-testid="session-loaded" /> : null);

function renderEditor() {
  const user = userEvent.setup();
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <SessionProbe />
      <ListTreeEditor accountId={ACCOUNT} listId={LIST} />
    </AdminContext>,
  );
  const titles = () => screen.queryAllByTestId('list-tree-row').map((r) => r.getAttribute('aria-label'));
  const row = (title: string) => screen.getByRole('treeitem', { name: title });
  const writes = () => calls.filter((c) => c.method !== 'GET');
  return { user, titles, row, writes };
}

describe('list tree model', () => {
  const t = [node('a', 'A', [node('a1', 'A1'), node('a2', 'A2')]), node('b', 'B')];
  it('moves: shift, indent under the sibling above, outdent after the parent, never into its own subtree', () => {
    const titlesOf = (nodes: ListItemNode[]): unknown => nodes.map((n) => (n.children.length ? [n.li_title, titlesOf(n.children)] : n.li_title));
    expect(titlesOf(planShift(t, 'a2', -1)!.tree)).toEqual([['A', ['A2', 'A1']], 'B']);
    expect(planShift(t, 'a1', -1)).toBeUndefined();
    expect(titlesOf(planIndent(t, 'b')!.tree)).toEqual([['A', ['A1', 'A2', 'B']]]);
    expect(titlesOf(planIndent(t, 'a2')!.tree)).toEqual([['A', [['A1', ['A2']]]], 'B']);
    expect(planIndent(t, 'a')).toBeUndefined();
    const out = planOutdent(t, 'a1')!;
    expect(titlesOf(out.tree)).toEqual([['A', ['A2']], 'A1', 'B']);
    expect(out).toMatchObject({ fromParentId: 'a', toParentId: null, toIndex: 1 });
    expect(planMove(t, 'a', 'a1', 0)).toBeUndefined();
    expect(visibleRows(t, new Set()).map((r) => r.node.li_id)).toEqual(['a', 'b']);
    expect(visibleRows(t, new Set(['a'])).map((r) => [r.node.li_id, r.depth])).toEqual([
      ['a', 1],
      ['a1', 2],
      ['a2', 2],
      ['b', 1],
    ]);
  });
});

describe('ListTreeEditor', () => {
  it('shows the tree expanded, in order, with levels', async () => {
    const { titles, row } = renderEditor();
    await waitFor(() => expect(titles()).toEqual(['Fruit', 'Apple', 'Pear', 'Vegetables', 'Kale']));
    expect(row('Apple').getAttribute('aria-level')).toBe('2');
    expect(row('Fruit').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('list-count').textContent).toBe('5 items');
  });

  it('renames inline: Enter saves with PUT, Escape cancels without a call', async () => {
    const { user, titles, writes } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Apple'));
    await user.click(screen.getByRole('button', { name: 'Rename Apple' }));
    const input = screen.getByRole('textbox', { name: 'Rename Apple' });
    expect((input as HTMLInputElement).value).toBe('Apple');
    await user.clear(input);
    await user.type(input, 'Green apple{Enter}');
    await waitFor(() => expect(titles()).toContain('Green apple'));
    expect(writes()).toEqual([{ method: 'PUT', path: `/accounts/${ACCOUNT}/list-items/apple`, body: { li_title: 'Green apple' } }]);
    expect(screen.queryByRole('textbox')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Rename Pear' }));
    await user.type(screen.getByRole('textbox', { name: 'Rename Pear' }), ' typed{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(titles()).toContain('Pear');
    expect(writes()).toHaveLength(1);
  });

  it('a refused rename keeps the field open with the reason', async () => {
    answers[`PUT /accounts/${ACCOUNT}/list-items/apple`] = json(409, { code: 'list_item_value_taken', message: 'taken', fields: { li_value: 'error_list_item_value_taken' } });
    const { user, titles } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Apple'));
    await user.click(screen.getByRole('button', { name: 'Rename Apple' }));
    await user.type(screen.getByRole('textbox', { name: 'Rename Apple' }), '!{Enter}');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Another item of this list already has this value');
    expect(screen.getByRole('textbox', { name: 'Rename Apple' })).toBeTruthy();
  });

  it('keyboard: Alt+Up reorders (the order route with the complete siblings), Alt+Right indents, Alt+Left outdents', async () => {
    const { titles, row, writes } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Pear'));
    act(() => row('Pear').focus());
    fireEvent.keyDown(row('Pear'), { key: 'ArrowUp', altKey: true });
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: `/accounts/${ACCOUNT}/list-items/order`, body: { ids: ['pear', 'apple'] } }]));
    expect(titles()).toEqual(['Fruit', 'Pear', 'Apple', 'Vegetables', 'Kale']);
    expect(document.activeElement).toBe(row('Pear'));

    // Apple under Pear (the sibling above): a new parent, last there, so one PUT of the item.
    fireEvent.keyDown(row('Apple'), { key: 'ArrowRight', altKey: true });
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toEqual({ method: 'PUT', path: `/accounts/${ACCOUNT}/list-items/apple`, body: { li_parentid: 'pear' } });
    expect(row('Apple').getAttribute('aria-level')).toBe('3');

    // Kale out of Vegetables: to the top level, right after Vegetables (last there: no order call needed).
    fireEvent.keyDown(row('Kale'), { key: 'ArrowLeft', altKey: true });
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()[2]).toEqual({ method: 'PUT', path: `/accounts/${ACCOUNT}/list-items/kale`, body: { li_parentid: null } });
    expect(row('Kale').getAttribute('aria-level')).toBe('1');

    // Fruit's child Pear out, between Fruit and Vegetables: moved, then placed by the order route.
    fireEvent.keyDown(row('Pear'), { key: 'ArrowLeft', altKey: true });
    await waitFor(() => expect(writes()).toHaveLength(5));
    expect(writes().slice(3)).toEqual([
      { method: 'PUT', path: `/accounts/${ACCOUNT}/list-items/pear`, body: { li_parentid: null } },
      { method: 'PUT', path: `/accounts/${ACCOUNT}/list-items/order`, body: { ids: ['fruit', 'pear', 'veg', 'kale'] } },
    ]);
    expect(titles()).toEqual(['Fruit', 'Pear', 'Apple', 'Vegetables', 'Kale']);
  });

  it('arrow keys move focus and open or close items; a failed move reloads the tree and says why', async () => {
    answers[`PUT /accounts/${ACCOUNT}/list-items/order`] = json(400, { code: 'order_invalid', message: 'x' });
    const { titles, row, writes } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Fruit'));
    act(() => row('Fruit').focus());
    fireEvent.keyDown(row('Fruit'), { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(row('Apple')));
    fireEvent.keyDown(row('Apple'), { key: 'ArrowLeft' });
    await waitFor(() => expect(document.activeElement).toBe(row('Fruit')));
    fireEvent.keyDown(row('Fruit'), { key: 'ArrowLeft' });
    await waitFor(() => expect(titles()).toEqual(['Fruit', 'Vegetables', 'Kale']));
    fireEvent.keyDown(row('Fruit'), { key: 'ArrowRight' });
    await waitFor(() => expect(titles()).toEqual(['Fruit', 'Apple', 'Pear', 'Vegetables', 'Kale']));

    const loads = () => calls.filter((c) => c.path.endsWith('/tree')).length;
    expect(loads()).toBe(1);
    fireEvent.keyDown(row('Vegetables'), { key: 'ArrowUp', altKey: true });
    expect(await screen.findByText('The order could not be saved; reload and try again')).toBeTruthy();
    await waitFor(() => expect(loads()).toBe(2));
    await waitFor(() => expect(titles()).toEqual(['Fruit', 'Apple', 'Pear', 'Vegetables', 'Kale']));
    expect(writes()).toHaveLength(1);
  });

  it('delete asks first, saying how many items go; cancel keeps them, confirm deletes the subtree', async () => {
    const { user, titles, writes } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Fruit'));
    await user.click(screen.getByRole('button', { name: 'Delete Fruit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete "Fruit"?')).toBeTruthy();
    expect(within(dialog).getByTestId('list-delete-text').textContent).toBe('This deletes 3 items: "Fruit" and everything below it.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Kale' }));
    expect((await screen.findByTestId('list-delete-text')).textContent).toBe('This deletes 1 item: "Kale".');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Delete Fruit' }));
    await user.click(await screen.findByTestId('list-delete-confirm'));
    await waitFor(() => expect(titles()).toEqual(['Vegetables', 'Kale']));
    expect(writes()).toEqual([{ method: 'DELETE', path: `/accounts/${ACCOUNT}/list-items/fruit`, body: undefined }]);
    expect(screen.getByTestId('list-count').textContent).toBe('2 items');
  });

  it('adds a child inline: Enter creates it below its parent and stays ready for the next one', async () => {
    const { user, titles, writes } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Kale'));
    await user.click(screen.getByRole('button', { name: 'Add an item below Vegetables' }));
    await user.type(screen.getByRole('textbox', { name: 'New item' }), 'Leek{Enter}');
    await waitFor(() => expect(titles()).toEqual(['Fruit', 'Apple', 'Pear', 'Vegetables', 'Kale', 'Leek']));
    expect(writes()).toEqual([{ method: 'POST', path: `/accounts/${ACCOUNT}/list-items`, body: { li_listid: LIST, li_parentid: 'veg', li_title: 'Leek' } }]);
    const next = screen.getByRole('textbox', { name: 'New item' }) as HTMLInputElement;
    expect(next.value).toBe('');
    await user.type(next, '{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('import shows every bad row like the user import; export is a download link', async () => {
    answers[`POST /accounts/${ACCOUNT}/lists/${LIST}/import`] = json(400, {
      code: 'list_import_duplicate_value',
      message: '2 rows could not be imported; nothing was imported',
      errors: [
        { row: 3, code: 'list_import_duplicate_value', title: 'Apple', value: 'apple', parent_value: '' },
        { row: 5, code: 'list_import_unknown_parent', title: 'Kiwi', value: 'kiwi', parent_value: 'exotic' },
      ],
    });
    const { user, titles } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Fruit'));
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(`/api/1/accounts/${ACCOUNT}/lists/${LIST}/export.csv`);
    await user.upload(screen.getByTestId('list-import-input'), new File(['title\nApple\n'], 'items.csv', { type: 'text/csv' }));
    const errors = await screen.findAllByTestId('list-import-error');
    expect(errors.map((e) => e.textContent)).toEqual([
      'Duplicate valueLine 3: "Apple" has the value "apple", which the list or an earlier line already has.',
      'Unknown parentLine 5: "Kiwi" names the parent "exotic", which is neither in the list nor in the file.',
    ]);
    expect(screen.getByText('2 rows could not be imported; nothing was imported.')).toBeTruthy();
    const sent = calls.find((c) => c.method === 'POST')!;
    expect((sent.body as FormData).get('file')).toBeInstanceOf(File);

    await user.click(screen.getByRole('button', { name: 'Close' }));
    answers[`POST /accounts/${ACCOUNT}/lists/${LIST}/import`] = json(200, { code: 'ok', rows: 4, created: 4 });
    await user.upload(screen.getByTestId('list-import-input'), new File(['A\n  B\n'], 'items.txt', { type: 'text/plain' }));
    expect((await screen.findByTestId('list-import-success')).textContent).toContain('4 items were added to the list.');
  });

  it('renders only the rows in view for 5,000 items, and the rows further down once scrolled there', async () => {
    tree = Array.from({ length: 50 }, (_, i) =>
      node(
        `g${i}`,
        `Group ${i}`,
        Array.from({ length: 99 }, (_, j) => node(`i${i}_${j}`, `Item ${i}.${j}`)),
      ),
    );
    const { titles } = renderEditor();
    await waitFor(() => expect(screen.getByTestId('list-count').textContent).toBe('5,000 items'));
    const shown = titles();
    expect(shown[0]).toBe('Group 0');
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(40);
    const scroller = screen.getByTestId('list-tree');
    act(() => {
      scroller.scrollTop = 4999 * ROW_HEIGHT;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(titles()).toContain('Item 49.98'));
    expect(titles().length).toBeLessThan(40);
    expect(titles()).not.toContain('Group 0');
  });

  it('with the read bit only: no add, import, rename, delete or dragging', async () => {
    setSession(readOnlySession());
    const { titles, row } = renderEditor();
    await waitFor(() => expect(titles()).toContain('Fruit'));
    await screen.findByTestId('session-loaded');
    expect(screen.queryByRole('button', { name: 'Add item' })).toBeNull();
    expect(screen.queryByTestId('list-import')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Rename|^Delete|^Add an item/ })).toBeNull();
    expect(row('Apple').getAttribute('draggable')).toBe('false');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toBeTruthy();
  });
});
