import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError, type I18nProvider } from 'react-admin';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { setSession } from '../../admin/src/providers/session';
import { queueKey } from '../../admin/src/leads/TranscriptionQueue';
import { ACCOUNT, mountConsole, sessionAs, type Row } from '../helpers/consoleScreens';

/**
 * The console's lead screens in jsdom over an in-memory data provider and a stubbed fetch for the calls outside
 * react-admin's data provider (the event's forms, the bulk call): the list's generic bulk on the rows ticked or on
 * everything the filter matches, the lead page (answers read-only by the shared renderer, photos, consent text) and the transcription
 * queue (done with complete answers, lead_incomplete under the field, postpone, next, the keys).
 */
let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
});
afterEach(() => {
  cleanup();
  setSession(null);
  vi.unstubAllGlobals();
});

const EVENT = 'ev-1';
const GRAPH = {
  event: { ev_id: EVENT, ev_title: 'Expo 2026' },
  forms: [
    {
      form: { f_id: 'f-1', f_title: 'Booth' },
      elements: [
        { fe_id: 'e1', fe_formid: 'f-1', fe_name: 'email', fe_title: 'E-mail', fe_type: 'text', fe_is_required: false, fe_options: null },
        { fe_id: 'e2', fe_formid: 'f-1', fe_name: 'company', fe_title: 'Company', fe_type: 'text', fe_is_required: true, fe_options: null },
        { fe_id: 'e3', fe_formid: 'f-1', fe_name: 'hot', fe_title: 'Hot lead', fe_type: 'toggle', fe_is_required: false, fe_options: null },
      ],
    },
  ],
};

type Call = { method: string; path: string; body?: unknown };
let calls: Call[] = [];
function serveFetch(refusal?: Record<string, unknown>) {
  calls = [];
  document.cookie = 'ls.csrf-token=tok';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', path: String(url).replace(/^\/api\/1/, ''), body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (call.path.endsWith(`/events/${EVENT}/graph`)) return Response.json(GRAPH);
      if (call.path.endsWith('/leads/bulk')) return refusal ? Response.json(refusal, { status: 400 }) : Response.json({ count: 2 });
      if (call.path.includes('/handoffs')) return Response.json([], { headers: { 'Content-Range': 'handoffs 0-0/0' } });
      // the people behind owner ids (a root user who is no member)
      if (call.path.startsWith(`/accounts/${ACCOUNT}/leads/owners?ids=`))
        return Response.json(call.path.endsWith('=u-root') ? [{ id: 'u-root', u_email: 'root@platform.example', u_first_name: '', u_last_name: '' }] : []);
      return Response.json({ code: 'not_found', message: 'Not found' }, { status: 404 });
    }),
  );
}

const nina: Row = { id: 'm-nina', au_userid: 'u-nina', au_role: 'member', u_email: 'nina@example.com', u_first_name: 'Nina', u_last_name: 'Visser' };
const lead = (id: string, extra: Record<string, unknown> = {}): Row => ({
  id,
  ld_id: id,
  ld_eventid: EVENT,
  ld_email: null,
  ld_first_name: null,
  ld_last_name: null,
  ld_ownerid: 'u-nina',
  ld_captured_by: 'u-nina',
  ld_answers: {},
  ld_is_valid: true,
  ld_transcription_status: 'none',
  ld_source: 'manual',
  ld_consent_news: false,
  ld_consent_text: null,
  ld_captured_at: '2026-11-20T10:00:00.000Z',
  ...extra,
});
const tables = (leads: Row[]) => ({ leads, members: [nina], events: [{ id: EVENT, ev_title: 'Expo 2026' }] });

describe('leads list', () => {
  it('names every owner: a member by name, an owner who is no member (root) by the e-mail the API gives, never a raw id', async () => {
    serveFetch();
    mountConsole(
      sessionAs('member', 'admin'),
      '/leads',
      tables([lead('r1', { ld_email: 'by-root@example.com', ld_ownerid: 'u-root' }), lead('n1', { ld_email: 'by-nina@example.com' })]),
      i18nProvider,
    );
    const row = (email: string) => screen.getByText(email, { exact: false }).closest('tr')!;
    await screen.findByText('by-root@example.com', { exact: false }, { timeout: 15_000 });
    await waitFor(() => expect(row('by-root@example.com').textContent).toContain('root@platform.example'));
    expect(row('by-root@example.com').textContent).not.toContain('u-root');
    expect(row('by-nina@example.com').textContent).toContain('Nina Visser');
    // one request for the person, none for the member
    expect(calls.filter((c) => c.path.includes('/leads/owners')).map((c) => c.path)).toEqual([`/accounts/${ACCOUNT}/leads/owners?ids=u-root`]);
  }, 60_000);

  const tickPage = async () => fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all' }, { timeout: 15_000 }));
  const bulkCall = () => calls.find((c) => c.path.endsWith('/leads/bulk'));

  it('deletes every lead the filter matches through the generic bulk, after a confirmation that says all N, and downloads them as CSV', async () => {
    serveFetch();
    const rows = [...Array.from({ length: 27 }, (_, i) => lead(`c${i}`, { ld_source: 'card', ld_email: `c${i}@example.com` })), lead('m1', { ld_email: 'm@example.com' })];
    const filter = { ld_source: 'card' };
    mountConsole(sessionAs('member', 'admin'), `/leads?filter=${encodeURIComponent(JSON.stringify(filter))}`, tables(rows), i18nProvider);
    const csv = await screen.findByTestId('leads-export', {}, { timeout: 15_000 });
    await waitFor(() => expect(decodeURIComponent(csv.getAttribute('href')!)).toBe(`/api/1/accounts/${ACCOUNT}/leads/export.csv?filter=${JSON.stringify(filter)}`));
    await tickPage();
    fireEvent.click(await screen.findByTestId('select-all-matching'));
    expect((await screen.findByTestId('all-matching-selected')).textContent).toBe('All 27 matching records are selected');
    fireEvent.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete 27 records?')).toBeTruthy();
    expect(dialog.textContent).toContain('This is all 27 records the current search and filters match, not only the page shown.');
    expect(bulkCall()).toBeUndefined(); // nothing before the confirmation
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 27' }));
    await waitFor(() => expect(bulkCall()).toEqual({ method: 'POST', path: `/accounts/${ACCOUNT}/leads/bulk`, body: { action: 'delete', filter } }));
    expect(await screen.findByText('2 records deleted.')).toBeTruthy(); // the server's count
  });

  it('without a filter, "all matching" is filter {} (every lead), said in the dialog; validity and owner are the bulk fields', async () => {
    serveFetch();
    mountConsole(sessionAs('member', 'admin'), '/leads', tables(Array.from({ length: 30 }, (_, i) => lead(`l${i}`))), i18nProvider);
    await tickPage();
    fireEvent.click(await screen.findByTestId('select-all-matching'));
    fireEvent.click(await screen.findByTestId('bulk-update'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Change 30 records')).toBeTruthy();
    expect(dialog.textContent).toContain('This is all 30 records the current search and filters match');
    expect(within(dialog).getByRole('combobox', { name: /Owner/ })).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Valid/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'No' }));
    fireEvent.click(within(dialog).getByTestId('bulk-update-save'));
    await waitFor(() => expect(bulkCall()?.body).toEqual({ action: 'update', filter: {}, changes: { ld_is_valid: false } }));
    expect(await screen.findByText('2 records changed.')).toBeTruthy();
  });

  it('ticked leads by id; a refusal (an owner who is no member) shows its reasons and changes nothing', async () => {
    serveFetch({
      code: 'bulk_refused',
      message: '2 of 2 records cannot be changed; nothing was changed',
      refused: 2,
      reasons: [
        { id: 'l1', code: 'validation_failed', message: 'Choose one of the list', fields: { ld_ownerid: 'error_reference_invalid' } },
        { id: 'l2', code: 'validation_failed', message: 'Choose one of the list', fields: { ld_ownerid: 'error_reference_invalid' } },
      ],
    });
    mountConsole(sessionAs('member', 'admin'), '/leads', tables([lead('l1'), lead('l2'), lead('l3')]), i18nProvider);
    await waitFor(() => expect(document.querySelectorAll('tbody .select-item input').length).toBe(3), { timeout: 15_000 });
    const boxes = [...document.querySelectorAll<HTMLInputElement>('tbody .select-item input')];
    fireEvent.click(boxes[0]);
    fireEvent.click(boxes[1]);
    expect(screen.queryByTestId('select-all-matching')).toBeNull();
    fireEvent.click(await screen.findByTestId('bulk-update'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Valid/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Yes' }));
    fireEvent.click(within(dialog).getByTestId('bulk-update-save'));
    await waitFor(() => expect(bulkCall()?.body).toEqual({ action: 'update', ids: ['l1', 'l2'], changes: { ld_is_valid: true } }));
    const refused = await screen.findByTestId('bulk-refused');
    const reference = i18nProvider.translate('error_reference_invalid');
    expect(reference).not.toBe('error_reference_invalid');
    expect(refused.textContent).toContain(`l1: ${reference}`);
    expect(refused.textContent).toContain(`l2: ${reference}`);
  });
});

describe('lead page', () => {
  it('shows the answers read-only through the shared renderer, the card photos and the consent text as seen', async () => {
    serveFetch();
    const l = lead('l1', {
      ld_source: 'card',
      ld_answers: { company: 'Acme', hot: true },
      ld_front_fileid: 'file-front',
      ld_consent_news: true,
      ld_consent_text: 'Yes, send me news about Expo.',
    });
    mountConsole(sessionAs('member', 'admin'), '/leads/l1', tables([l]), i18nProvider);
    const answers = await screen.findByTestId('lead-answers');
    await waitFor(() => expect(answers.querySelector('[data-name="company"]')?.textContent).toContain('Acme'));
    expect(answers.querySelector('input')).toBeNull(); // read-only: no inputs
    const photo = within(screen.getByTestId('lead-photos')).getByRole('img', { name: 'Card front' }) as HTMLImageElement;
    expect(photo.getAttribute('src')).toBe(`/api/1/accounts/${ACCOUNT}/lead-files/file-front`);
    expect(screen.getByTestId('lead-consent').textContent).toContain('Yes, send me news about Expo.');
    // the fields the person gave are shown, validity and owner can change
    expect(screen.getByTestId('readonly-ld_email')).toBeTruthy();
    expect(document.querySelector('[name="ld_is_valid"]')).not.toBeNull();
    // handing off: the button, and the lead's history asked for by its id
    expect(screen.getByTestId('handoff-open')).toBeTruthy();
    expect(await screen.findByTestId('handoff-history')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path.startsWith(`/accounts/${ACCOUNT}/handoffs`) && decodeURIComponent(c.path).includes('"ho_leadid":"l1"'))).toBe(true));
  });
});

describe('transcription queue', () => {
  it('keys: Ctrl+Enter done, Alt+P postpone, Alt+N next', () => {
    expect(queueKey({ key: 'Enter', ctrlKey: true, metaKey: false, altKey: false })).toBe('done');
    expect(queueKey({ key: 'p', ctrlKey: false, metaKey: false, altKey: true })).toBe('postpone');
    expect(queueKey({ key: 'N', ctrlKey: false, metaKey: false, altKey: true })).toBe('next');
    expect(queueKey({ key: 'Enter', ctrlKey: false, metaKey: false, altKey: false })).toBeNull();
  });

  it('goes through pending then postponed cards: names who captured it, refuses incomplete answers under the field, saves done, postpones and skips', async () => {
    serveFetch();
    const rows = [
      lead('l1', { ld_source: 'card', ld_transcription_status: 'pending', ld_front_fileid: 'f1' }),
      lead('l2', { ld_source: 'card', ld_transcription_status: 'pending', ld_front_fileid: 'f2' }),
      lead('l3', { ld_source: 'card', ld_transcription_status: 'postponed', ld_front_fileid: 'f3' }),
    ];
    const { data } = mountConsole(sessionAs('member', 'admin'), '/transcription', tables(rows), i18nProvider);
    const update = data.provider.update;
    data.provider.update = async (resource, params) => {
      const d = params.data as Record<string, unknown>;
      if (d.ld_transcription_status === 'done' && !(d.ld_answers as Record<string, unknown>).company)
        throw new HttpError('Please complete all mandatory fields', 400, { code: 'lead_incomplete', fields: { company: 'error_required' } });
      return update(resource, params);
    };
    const item = await screen.findByTestId('queue-item');
    expect(item.getAttribute('data-lead')).toBe('l1');
    expect(screen.getByText('Card 1 of 3')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('queue-captured').textContent).toContain('Nina Visser'));
    expect(screen.getByTestId('queue-captured').textContent).toContain('Expo 2026');
    const company = (await screen.findByRole('textbox', { name: /Company/ })) as HTMLInputElement;

    // done without the required answer: the field says so, the lead stays
    fireEvent.keyDown(window, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(company.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByTestId('queue-item').getAttribute('data-lead')).toBe('l1');

    fireEvent.change(company, { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getByTestId('queue-item').getAttribute('data-lead')).toBe('l2'));
    const saved = data.calls.filter((c) => c.method === 'update').at(-1)!.params as { id: string; data: Record<string, unknown> };
    expect(saved).toMatchObject({ id: 'l1', data: { ld_transcription_status: 'done', ld_answers: { company: 'Acme' } } });
    expect(screen.getByText('Card 1 of 2')).toBeTruthy();

    // Alt+N: the next card, nothing stored
    const before = data.calls.length;
    fireEvent.keyDown(window, { key: 'n', altKey: true });
    await waitFor(() => expect(screen.getByTestId('queue-item').getAttribute('data-lead')).toBe('l3'));
    expect(data.calls.length).toBe(before);

    // Alt+P: postponed, kept at the end of the queue
    fireEvent.keyDown(window, { key: 'p', altKey: true });
    await waitFor(() => expect(data.calls.filter((c) => c.method === 'update').at(-1)!.params).toMatchObject({ id: 'l3', data: { ld_transcription_status: 'postponed' } }));
    await waitFor(() => expect(screen.getByTestId('queue-item').getAttribute('data-lead')).toBe('l2'));
  });

  it('says when there is nothing to transcribe', async () => {
    serveFetch();
    mountConsole(sessionAs('member', 'admin'), '/transcription', tables([lead('l1')]), i18nProvider);
    expect((await screen.findByTestId('queue-empty')).textContent).toContain('Nothing to transcribe');
  });
});
