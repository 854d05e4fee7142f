import { ELEMENT_TYPES, isListType, type ElementType, type ListItemNode } from '../../../resources/answers';

/**
 * A fake account API inside the page (bench/designer.ts): a form of `count` elements of every type in turn, lists of
 * 3 and 27 items, and one list of `bigItems` items used by a checkbox tree and a select box near the top of the form.
 * Answers at once, so a measurement sees the browser and React only. Calls are kept in window.__designerCalls.
 */
export const ACCOUNT = '00000000-0000-4000-8000-00000000000a';
export const FORM = '00000000-0000-4000-8000-00000000000f';
const LISTS = {
  small: '00000000-0000-4000-8000-000000000001',
  medium: '00000000-0000-4000-8000-000000000002',
  big: '00000000-0000-4000-8000-000000000003',
};

const uuid = (n: number) => `10000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function flatItems(listId: string, titles: string[]) {
  return titles.map((title, i) => ({
    li_id: `${listId.slice(0, 24)}${(i + 1).toString(16).padStart(12, '0')}`,
    li_listid: listId,
    li_parentid: null,
    li_title: title,
    li_value: `v${i + 1}`,
    li_order: i,
  }));
}

export function installFakeApi({ count, bigItems }: { count: number; bigItems: number }) {
  const rows: Record<string, ReturnType<typeof flatItems>> = {
    [LISTS.small]: flatItems(LISTS.small, ['Red', 'Green', 'Blue']),
    [LISTS.medium]: flatItems(
      LISTS.medium,
      Array.from({ length: 27 }, (_, i) => `Country ${i + 1}`),
    ),
    [LISTS.big]: flatItems(
      LISTS.big,
      Array.from({ length: bigItems }, (_, i) => `Item ${i + 1}`),
    ),
  };
  const tree = (listId: string): ListItemNode[] => rows[listId].map((r) => ({ li_id: r.li_id, li_title: r.li_title, li_value: r.li_value, children: [] }));
  const trees = Object.fromEntries(Object.keys(rows).map((id) => [id, tree(id)]));
  const elements = Array.from({ length: count }, (_, i) => {
    const type: ElementType = i === 6 ? 'checkbox_tree' : i === 8 ? 'selectbox' : ELEMENT_TYPES[i % ELEMENT_TYPES.length];
    const listId = !isListType(type) ? null : i === 6 || i === 8 ? LISTS.big : i % 2 ? LISTS.medium : LISTS.small;
    const options: Record<string, unknown> | null =
      type === 'slider'
        ? { min: 0, max: 10, step: 1 }
        : type === 'text' || type === 'textarea'
          ? { max_length: 200 }
          : type === 'toggle' || type === 'checkbox'
            ? { default: false }
            : type === 'date_selector_days'
              ? { days: ['2026-05-12', '2026-05-13'], disabled: [] }
              : null;
    return {
      fe_id: uuid(i + 1),
      id: uuid(i + 1),
      fe_formid: FORM,
      fe_title: `Question ${i + 1}`,
      fe_name: `q_${String(i + 1).padStart(3, '0')}`,
      fe_external_name: null,
      fe_type: type,
      fe_listid: listId,
      fe_order: i,
      fe_is_required: i % 3 === 0,
      fe_options: options,
    };
  });
  const calls: { method: string; path: string; body?: unknown }[] = [];
  (window as unknown as { __designerCalls: typeof calls }).__designerCalls = calls;
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  let seq = 1000;
  const base = `/api/1/accounts/${ACCOUNT}`;
  window.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), location.href);
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    const path = url.pathname;
    calls.push({ method, path: path + url.search, body });
    if (path === '/api/1/auth/me') return json(200, {});
    if (path === `${base}/forms/${FORM}/graph`)
      return json(200, { form: { f_id: FORM, f_title: 'Bench form', f_name: 'bench' }, elements: elements.map((e) => (e.fe_listid ? { ...e, items: trees[e.fe_listid] } : e)) });
    if (path === `${base}/lists`)
      return json(200, [
        { id: LISTS.small, l_id: LISTS.small, l_title: 'Colours', l_name: 'colours' },
        { id: LISTS.medium, l_id: LISTS.medium, l_title: 'Countries', l_name: 'countries' },
        { id: LISTS.big, l_id: LISTS.big, l_title: `${bigItems} items`, l_name: 'big' },
      ]);
    const listTree = new RegExp(`^${base}/lists/([^/]+)/tree$`).exec(path);
    if (listTree) return json(200, trees[listTree[1]] ?? []);
    if (path === `${base}/form-elements/order` && method === 'PUT')
      return json(
        200,
        body.ids.map((id: string) => elements.find((e) => e.fe_id === id)),
      );
    if (path === `${base}/form-elements` && method === 'POST') {
      const id = uuid(++seq);
      return json(201, { ...body, fe_id: id, id, fe_order: elements.length });
    }
    const one = new RegExp(`^${base}/form-elements/([^/]+)$`).exec(path);
    if (one && method === 'PUT') return json(200, { ...elements.find((e) => e.fe_id === one[1]), ...body });
    if (one && method === 'DELETE') return json(200, { fe_id: one[1] });
    return json(404, { code: 'not_found', message: `no fake for ${method} ${path}` });
  };
}
