import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { I18nProvider } from 'react-admin';
import { setSession } from '../../admin/src/providers/session';
import { ACCOUNT, consoleI18n, mountConsole, sessionAs, type Row } from '../helpers/consoleScreens';

/**
 * The `tags` field kind and the qualification fields in the console (platform-and-flows.md section 4): the leads
 * list's rating stars and tag chips, its tags filter and rating range filter, the lead page's chips input (typed tags
 * made identifiers, saved as an array), and the voice memo played with an <audio> element.
 */
let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  setSession(null);
  vi.unstubAllGlobals();
});

const EVENT = 'ev-1';
const NINA = '5b0f7e52-8c1d-4e3a-9f00-00000000aaaa';
let bulkBodies: unknown[] = [];
function serveFetch() {
  document.cookie = 'ls.csrf-token=tok';
  bulkBodies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = String(url);
      if (path.endsWith('/leads/bulk')) {
        bulkBodies.push(JSON.parse(String(init.body)));
        return Response.json({ count: 2 });
      }
      if (path.endsWith(`/events/${EVENT}/graph`)) return Response.json({ event: { ev_id: EVENT, ev_title: 'Expo' }, forms: [] });
      if (path.includes('/handoffs')) return Response.json([], { headers: { 'Content-Range': 'handoffs 0-0/0' } });
      return Response.json({ code: 'not_found', message: 'Not found' }, { status: 404 });
    }),
  );
}

const nina: Row = { id: 'm-nina', au_userid: NINA, au_role: 'member', u_email: 'nina@example.com', u_first_name: 'Nina', u_last_name: 'Visser' };
const lead = (id: string, extra: Record<string, unknown> = {}): Row => ({
  id,
  ld_id: id,
  ld_eventid: EVENT,
  ld_email: `${id}@example.com`,
  ld_first_name: 'Ann',
  ld_last_name: id,
  ld_ownerid: NINA,
  ld_answers: {},
  ld_is_valid: true,
  ld_transcription_status: 'none',
  ld_source: 'manual',
  ld_consent_news: false,
  ld_captured_at: '2026-11-20T10:00:00.000Z',
  ld_rating: null,
  ld_tags: [],
  ld_notes: null,
  ld_memo_fileid: null,
  ld_memo_url: null,
  ...extra,
});
const tables = (leads: Row[]) => ({ leads, members: [nina], events: [{ id: EVENT, ev_title: 'Expo' }] });

describe('tags kind and rating in the leads list', () => {
  it('shows the rating as stars and the tags as chips (three and "+n" in a row)', async () => {
    serveFetch();
    const many = ['a1', 'b2', 'c3', 'd4', 'e5'];
    mountConsole(sessionAs('member', 'admin'), '/leads', tables([lead('l1', { ld_rating: 3, ld_tags: ['hot', 'partner'] }), lead('l2', { ld_tags: many })]), i18nProvider);
    const cells = await screen.findAllByTestId('tags-ld_tags', {}, { timeout: 15_000 });
    expect(cells).toHaveLength(2);
    expect(
      within(cells[0])
        .getAllByText(/.+/)
        .map((c) => c.textContent),
    ).toEqual(['hot', 'partner']);
    expect(
      within(cells[1])
        .getAllByText(/.+/)
        .map((c) => c.textContent),
    ).toEqual(['a1', 'b2', 'c3', '+2']);
    const stars = screen.getByLabelText('3 of 5');
    expect(stars.textContent).toBe('★★★☆☆');
  });

  it('offers the tags filter (any of) and the rating range (from, up to) in the filter menu; a tags filter in the address shows as chips', async () => {
    serveFetch();
    const filter = { ld_tags: ['hot', 'vip'] };
    mountConsole(sessionAs('member', 'admin'), `/leads?filter=${encodeURIComponent(JSON.stringify(filter))}`, tables([lead('l1')]), i18nProvider);
    const input = await screen.findByTestId('tags-input-ld_tags', {}, { timeout: 15_000 });
    const box = input.closest('.MuiAutocomplete-root') as HTMLElement;
    await waitFor(() => expect(within(box).getByText('hot')).toBeTruthy());
    expect(within(box).getByText('vip')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Add filter/i }));
    expect(await screen.findByRole('menuitemcheckbox', { name: 'Rating from' })).toBeTruthy();
    expect(screen.getByRole('menuitemcheckbox', { name: 'Rating up to' })).toBeTruthy();
  });
});

describe('bulk update of rating and tags', () => {
  it('the bulk bar offers the rating and the tags (chips), and sends only what was given', async () => {
    serveFetch();
    mountConsole(sessionAs('member', 'admin'), '/leads', tables([lead('l1'), lead('l2'), lead('l3')]), i18nProvider);
    await waitFor(() => expect(document.querySelectorAll('tbody .select-item input').length).toBe(3), { timeout: 15_000 });
    const boxes = [...document.querySelectorAll<HTMLInputElement>('tbody .select-item input')];
    fireEvent.click(boxes[0]);
    fireEvent.click(boxes[2]);
    fireEvent.click(await screen.findByTestId('bulk-update'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Rating'), { target: { value: '5' } });
    const tags = within(dialog).getByTestId('tags-input-ld_tags');
    fireEvent.change(tags, { target: { value: 'VIP' } });
    fireEvent.keyDown(tags, { key: 'Enter' });
    await waitFor(() => expect(within(dialog).getByText('vip')).toBeTruthy());
    fireEvent.click(within(dialog).getByTestId('bulk-update-save'));
    await waitFor(() => expect(bulkBodies).toEqual([{ action: 'update', ids: ['l1', 'l3'], changes: { ld_rating: 5, ld_tags: ['vip'] } }]));
  });
});

describe('the lead page: tags input, notes, rating and the voice memo', () => {
  it('types tags as identifiers (Enter adds, a chip cross removes), and saves them as an array', async () => {
    serveFetch();
    const { data } = mountConsole(
      sessionAs('member', 'admin'),
      '/leads/l1',
      tables([
        lead('l1', {
          ld_rating: 4,
          ld_tags: ['hot'],
          ld_memo_fileid: '5b0f7e52-8c1d-4e3a-9f00-000000000001',
          ld_memo_url: `/api/1/accounts/${ACCOUNT}/lead-files/5b0f7e52-8c1d-4e3a-9f00-000000000001`,
        }),
      ]),
      i18nProvider,
    );
    const input = (await screen.findByTestId('tags-input-ld_tags', {}, { timeout: 15_000 })) as HTMLInputElement;
    const box = input.closest('.MuiAutocomplete-root') as HTMLElement;
    expect(within(box).getByText('hot')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'Follow Up' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(within(box).getByText('follow-up')).toBeTruthy());
    // A comma adds what came before it.
    fireEvent.change(input, { target: { value: 'Café,' } });
    await waitFor(() => expect(within(box).getByText('cafe')).toBeTruthy());
    // The same tag twice is kept once.
    fireEvent.change(input, { target: { value: 'HOT' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(within(box).getAllByText('hot')).toHaveLength(1);
    const hot = within(box).getByText('hot').closest('.MuiChip-root') as HTMLElement;
    fireEvent.click(hot.querySelector('.MuiChip-deleteIcon')!);
    await waitFor(() => expect(within(box).queryByText('hot')).toBeNull());

    // The memo plays here.
    const audio = within(await screen.findByTestId('lead-memo')).getByTestId('lead-memo-audio') as HTMLAudioElement;
    expect(audio.tagName).toBe('AUDIO');
    expect(audio.getAttribute('src')).toBe(`/api/1/accounts/${ACCOUNT}/lead-files/5b0f7e52-8c1d-4e3a-9f00-000000000001`);
    expect(audio.hasAttribute('controls')).toBe(true);

    fireEvent.change(document.querySelector('textarea[name="ld_notes"]')!, { target: { value: 'Wants a demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'update')).toBeTruthy());
    const saved = (data.calls.find((c) => c.method === 'update')!.params as { data: Record<string, unknown> }).data;
    expect(saved.ld_tags).toEqual(['follow-up', 'cafe']);
    expect(saved.ld_notes).toBe('Wants a demo');
    expect(saved.ld_rating).toBe(4);
  });

  it('a lead without a memo shows no player', async () => {
    serveFetch();
    mountConsole(sessionAs('member', 'admin'), '/leads/l1', tables([lead('l1')]), i18nProvider);
    await screen.findByTestId('tags-input-ld_tags', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('lead-memo')).toBeNull();
  });
});
