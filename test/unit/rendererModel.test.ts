import { describe, expect, it } from 'vitest';
import * as answers from '../../resources/answers.js';
import * as model from '../../admin/src/renderer/model.js';
import { element, everyType, interests, manyItems } from '../helpers/formElements.js';

const { calendarMonths, checkStates, indexList, searchList, snapToStep, toggleChecked, treeRows, withChosen, CHECKED, MIXED, UNCHECKED } = model;

describe('list search', () => {
  const index = indexList([
    { li_id: '1', li_title: 'Zürich', li_value: 'zrh', children: [] },
    { li_id: '2', li_title: 'Amsterdam', li_value: 'ams', children: [] },
    { li_id: '3', li_title: 'Rotterdam', li_value: 'rtm', children: [] },
    { li_id: '4', li_title: 'Damascus', li_value: 'dam', children: [] },
  ]);
  const titles = (r: { matches: number[] }) => r.matches.map((i) => index.entries[i].title);
  it('puts titles that start with the text before those that contain it, ignoring case and accents', () => {
    expect(titles(searchList(index, 'dam'))).toEqual(['Damascus', 'Amsterdam', 'Rotterdam']);
    expect(titles(searchList(index, 'ZUR'))).toEqual(['Zürich']);
    expect(titles(searchList(index, '  '))).toEqual(['Zürich', 'Amsterdam', 'Rotterdam', 'Damascus']);
    expect(searchList(index, 'xyz')).toEqual({ matches: [], total: 0 });
  });
  it('draws at most the cap but counts every match; 5,000 items search in a few milliseconds', () => {
    const big = indexList(manyItems(5000));
    const all = searchList(big, '');
    expect(all.matches).toHaveLength(model.RENDER_CAP);
    expect(all.total).toBe(5000);
    const started = performance.now();
    const some = searchList(big, 'item 12');
    const took = performance.now() - started;
    expect(some.total).toBe(111); // 12, 120-129, 1200-1299
    expect(big.entries[some.matches[0]].title).toBe('Item 12');
    expect(took).toBeLessThan(50);
  });
  it('keeps chosen entries beyond the cap visible', () => {
    expect(withChosen([0, 1, 2], [4000, 1])).toEqual([0, 1, 2, 4000]);
  });
});

describe('checkbox tree', () => {
  const index = indexList(interests());
  const at = (v: string) => index.byValue.get(v)!;
  const state = (values: string[], v: string) => checkStates(index, new Set(values))[at(v)];
  it('checking a parent checks its whole subtree; clearing it clears the subtree', () => {
    const on = toggleChecked(index, [], at('hardware'));
    expect(on).toEqual(['hardware', 'printers', 'laser', 'inkjet', 'scanners']);
    expect(toggleChecked(index, on, at('hardware'))).toEqual([]);
  });
  it('a parent is mixed while some of its subtree is checked, and checked once all of it is', () => {
    let values = toggleChecked(index, [], at('laser'));
    expect(values).toEqual(['laser']);
    expect(state(values, 'printers')).toBe(MIXED);
    expect(state(values, 'hardware')).toBe(MIXED);
    expect(state(values, 'software')).toBe(UNCHECKED);
    values = toggleChecked(index, values, at('inkjet'));
    expect(values).toEqual(['printers', 'laser', 'inkjet']); // the parent joins when all its children are in
    expect(state(values, 'printers')).toBe(CHECKED);
    expect(state(values, 'hardware')).toBe(MIXED);
    values = toggleChecked(index, values, at('scanners'));
    expect(values).toEqual(['hardware', 'printers', 'laser', 'inkjet', 'scanners']);
    values = toggleChecked(index, values, at('laser'));
    expect(values).toEqual(['inkjet', 'scanners']); // and leaves when one goes
    expect(state(values, 'hardware')).toBe(MIXED);
  });
  it('clicking a mixed parent checks the rest of its subtree', () => {
    expect(toggleChecked(index, ['laser'], at('hardware'))).toEqual(['hardware', 'printers', 'laser', 'inkjet', 'scanners']);
  });
  it('keeps a stored value that is no longer in the list', () => {
    expect(toggleChecked(index, ['gone'], at('crm'))).toEqual(['crm', 'gone']);
  });
});

describe('tree rows', () => {
  const index = indexList(interests());
  const titles = (rows: number[]) => rows.map((i) => index.entries[i].title);
  it('without a query: the top level and the children of open nodes', () => {
    expect(titles(treeRows(index, new Set(), '').rows)).toEqual(['Software', 'Hardware', 'Services']);
    expect(titles(treeRows(index, new Set([index.byValue.get('hardware')!]), '').rows)).toEqual(['Software', 'Hardware', 'Printers', 'Scanners', 'Services']);
  });
  it('with a query: the matches and their ancestors, drawn open', () => {
    const r = treeRows(index, new Set(), 'jet');
    expect(titles(r.rows)).toEqual(['Hardware', 'Printers', 'Inkjet']);
    expect(r.open(index.byValue.get('hardware')!)).toBe(true);
  });
  it('caps the rows of a long flat list but counts them', () => {
    const big = indexList(manyItems(5000));
    const r = treeRows(big, new Set(), '');
    expect(r.rows).toHaveLength(model.RENDER_CAP);
    expect(r.total).toBe(5000);
  });
});

describe('calendar', () => {
  it('lays the months out Monday first (spec 9)', () => {
    const [may] = calendarMonths(['2025-05-12', '2025-05-14']);
    expect(may.month).toBe('2025-05');
    // 1 May 2025 is a Thursday: three blanks, then Thu..Sun
    expect(may.weeks[0]).toEqual([null, null, null, '2025-05-01', '2025-05-02', '2025-05-03', '2025-05-04']);
    expect(may.weeks[2][0]).toBe('2025-05-12'); // a Monday opens a week
    expect(may.weeks.at(-1)).toEqual(['2025-05-26', '2025-05-27', '2025-05-28', '2025-05-29', '2025-05-30', '2025-05-31', null]);
  });
  it('covers every month from the first to the last day, across a year end', () => {
    expect(calendarMonths(['2025-11-30', '2026-02-01']).map((m) => m.month)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(calendarMonths([])).toEqual([]);
  });
});

describe('slider steps', () => {
  it('snaps onto a step inside the range, without float noise', () => {
    expect(snapToStep(0.30000000000000004, { min: 0, max: 1, step: 0.1 })).toBe(0.3);
    expect(snapToStep(12, { min: 10, max: 50, step: 5 })).toBe(10);
    expect(snapToStep(13, { min: 10, max: 50, step: 5 })).toBe(15);
    expect(snapToStep(99, { min: 0, max: 50, step: 5 })).toBe(50);
    expect(snapToStep(9, { min: 0, max: 10, step: 4 })).toBe(8); // 10 is not on a step
  });
});

describe('the defaults of every type', () => {
  it('are valid answers to the API when nothing is required', () => {
    const elements = everyType().map((e) => ({ ...e, fe_is_required: false }));
    expect(answers.validateAnswers(elements, model.defaultAnswers(elements))).toEqual({});
  });
  it('an element of a list type without items has no options', () => {
    expect(indexList(element('selectbox', 's').items).entries).toEqual([]);
  });
});
