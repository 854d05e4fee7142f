import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PublicFormApp } from '../../admin/src/publicForm/PublicFormApp';
import { MEET_TEXTS, meetEventId, slotsByDay, slotTimes, type MeetInfo } from '../../admin/src/publicForm/meet';
import { CONSOLE_MESSAGES } from '../../resources/consoleMessages';
import consoleNl from '../../admin/src/i18n/console/nl';

/**
 * The meeting page /meet/{eventId} in jsdom with a fake API behind fetch: the slots by day in the account's zone, the
 * request posted with the CSRF header, the thanks, a slot taken meanwhile (409 slot_full: the slots reloaded), an
 * unknown event, Dutch.
 */
const EVENT = '0b7e4f6e-2c1d-4c61-9d55-0c0f4e1a2b3c';
const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'ls.csrf-token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

const info = (over: Partial<MeetInfo> = {}): MeetInfo => ({
  event: { ev_id: EVENT, ev_title: 'Harbour Expo', ev_start_date: null, ev_end_date: null },
  account: { a_name: 'Harbour & Co' },
  time_zone: 'Europe/Amsterdam',
  slots: [
    { ms_id: S1, ms_start: '2030-03-29T07:00:00.000Z', ms_end: '2030-03-29T07:30:00.000Z', ms_location: 'Stand 12', free: 1, host: { u_first_name: 'Hanna', u_last_name: 'Host' } },
    { ms_id: S2, ms_start: '2030-03-30T08:00:00.000Z', ms_end: '2030-03-30T08:30:00.000Z', ms_location: null, free: 2, host: null },
  ],
  ...over,
});

type Call = { url: string; method: string; headers: Record<string, string>; body?: Record<string, unknown> };
function fakeApi(answer: (call: Call, n: number) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: Call = {
        url,
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as Record<string, string>,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const { status, body } = answer(call, calls.length);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

const renderAt = (search = '?lang=en') => render(<PublicFormApp pathname={`/meet/${EVENT}`} search={search} />);

describe('the meeting page', () => {
  it('reads its event from the address; its slot-full text is the API message (en) and the console catalogue (nl)', () => {
    expect(meetEventId(`/meet/${EVENT.toUpperCase()}`)).toBe(EVENT);
    expect(meetEventId('/meet/nope')).toBeUndefined();
    expect(MEET_TEXTS.en.error_slot_full).toBe(CONSOLE_MESSAGES.error_slot_full);
    expect(MEET_TEXTS.nl.error_slot_full).toBe(consoleNl.error_slot_full);
    expect(Object.keys(MEET_TEXTS.nl).sort()).toEqual(Object.keys(MEET_TEXTS.en).sort());
  });

  it("groups the slots by day and shows their times in the account's zone (across the DST change)", () => {
    const days = slotsByDay(info().slots, 'Europe/Amsterdam', 'en');
    expect(days.map(([d]) => d)).toEqual(['Friday 29 March', 'Saturday 30 March']);
    // 07:00Z on 29 March 2030 is still winter time (UTC+1); 30 March too; the change is on the 31st.
    expect(slotTimes(info().slots[0], 'Europe/Amsterdam', 'en')).toBe('08:00–08:30');
    expect(slotTimes(info().slots[0], 'America/New_York', 'nl')).toBe('03:00–03:30');
  });

  it('asks for a meeting: the picked slot, e-mail and names posted with the CSRF header and the language, then the thanks', async () => {
    document.cookie = 'ls.csrf-token=tok123; path=/';
    const calls = fakeApi((call) => (call.method === 'GET' ? { status: 200, body: info() } : { status: 201, body: { mg_id: 'm1', id: 'm1' } }));
    renderAt();
    expect(await screen.findByRole('heading', { name: 'Book a meeting' })).toBeTruthy();
    expect(screen.getByText('Harbour Expo')).toBeTruthy();
    expect(screen.getByText(/Times in Europe\/Amsterdam/)).toBeTruthy();
    expect(screen.getByText('with Hanna Host')).toBeTruthy();
    const user = userEvent.setup();
    // Nothing picked, no e-mail: the page says so and posts nothing.
    await user.click(screen.getByRole('button', { name: 'Request meeting' }));
    expect(screen.getByText('Please pick a time')).toBeTruthy();
    expect(screen.getByText('This field is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('radio', { name: /08:00–08:30/ }));
    await user.type(screen.getByLabelText(/E-mail/), 'vera@example.com');
    await user.type(screen.getByLabelText('First name'), 'Vera');
    await user.type(screen.getByLabelText('Message (optional)'), 'About the range');
    await user.click(screen.getByRole('button', { name: 'Request meeting' }));
    expect(await screen.findByRole('heading', { name: 'Request sent' })).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe(`/api/1/meet/${EVENT}`);
    expect(post.headers['X-CSRF-Token']).toBe('tok123');
    expect(post.body).toEqual({ ms_id: S1, email: 'vera@example.com', first_name: 'Vera', last_name: '', message: 'About the range', website: '', lang: 'en' });
  });

  it('a slot taken meanwhile: 409 slot_full is said, the slots are loaded again without it', async () => {
    let gets = 0;
    fakeApi((call) => {
      if (call.method === 'GET') return { status: 200, body: ++gets === 1 ? info() : info({ slots: info().slots.slice(1) }) };
      return { status: 409, body: { code: 'slot_full', message: 'full', fields: { ms_id: 'error_slot_full' } } };
    });
    renderAt();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /08:00–08:30/ }));
    await user.type(screen.getByLabelText(/E-mail/), 'late@example.com');
    await user.click(screen.getByRole('button', { name: 'Request meeting' }));
    expect(await screen.findByText('This slot is fully booked, please pick another time')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('radio', { name: /08:00–08:30/ })).toBeNull());
    expect(screen.getByRole('radio', { name: /09:00–09:30/ })).toBeTruthy();
  });

  it('no free slots, an unknown event, and Dutch', async () => {
    fakeApi(() => ({ status: 200, body: info({ slots: [] }) }));
    renderAt('?lang=nl');
    expect(await screen.findByText('Er zijn geen vrije tijden meer voor dit evenement.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Maak een afspraak' })).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    fakeApi(() => ({ status: 404, body: { code: 'not_found', message: 'Event not found' } }));
    renderAt();
    expect(await screen.findByText('This page does not exist.')).toBeTruthy();
  });
});
