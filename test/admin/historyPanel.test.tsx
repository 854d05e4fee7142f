import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type I18nProvider } from 'react-admin';
import { HistoryPanel, type HistoryEntry } from '../../admin/src/history/HistoryPanel';
import { integrations } from '../../resources/integrations';
import { consoleI18n } from '../helpers/consoleScreens';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ENTRIES: HistoryEntry[] = [
  {
    h_id: 'h3',
    h_at: '2026-11-26T10:30:00Z',
    h_userid: 'u1',
    h_user_label: 'Sam Super <sam@example.com>',
    h_action: 'update',
    h_changes: { in_title: ['Scanner', 'Badge scanner'], in_secret: ['set', 'cleared'] },
  },
  { h_id: 'h2', h_at: '2026-11-26T10:00:00Z', h_userid: null, h_user_label: 'system', h_action: 'update', h_changes: { in_key: [null, 'K-1'] } },
  {
    h_id: 'h1',
    h_at: '2026-11-26T09:00:00Z',
    h_userid: 'u1',
    h_user_label: 'Sam Super <sam@example.com>',
    h_action: 'create',
    h_changes: { in_title: [null, 'Scanner'], in_type: [null, 'badge_scan'] },
  },
];

/** fetch answering the history and recording the revert. */
function stubApi() {
  const calls: { method: string; url: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ method: init?.method ?? 'GET', url });
      const body = url.endsWith('/history') ? ENTRIES : { id: 'i1' };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

const PATH = '/accounts/a1/integrations/i1';

describe('the history panel of an edit page', () => {
  it('loads when opened and shows who, what and when, newest first; secrets as set/cleared; choices by label; imports as the system', async () => {
    const calls = stubApi();
    const user = userEvent.setup();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <HistoryPanel decl={integrations} path={PATH} canRevert />
      </AdminContext>,
    );
    expect(calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: /history/i }));
    const entries = await screen.findAllByTestId('history-entry');
    expect(calls).toEqual([{ method: 'GET', url: `/api/1${PATH}/history` }]);
    expect(entries).toHaveLength(3);
    expect(entries[0].textContent).toContain('Sam Super <sam@example.com>');
    expect(entries[0].textContent).toContain('Scanner → Badge scanner');
    expect(entries[0].textContent).toContain('Secret');
    expect(entries[0].textContent).toContain('set → cleared');
    expect(entries[1].textContent).toContain('System');
    expect(entries[2].textContent).toContain('Created');
    // a choice by its label, as the form shows it, not its stored value
    expect(entries[2].textContent).toContain('Badge scan');
    expect(entries[2].textContent).not.toContain('badge_scan');
    // The newest entry is the record as it is: nothing to revert to.
    expect(within(entries[0]).queryByTestId('history-revert')).toBeNull();
    expect(within(entries[1]).getByTestId('history-revert')).toBeTruthy();
  });

  it('reverts after a confirmation, then reloads the history', async () => {
    const calls = stubApi();
    const user = userEvent.setup();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <HistoryPanel decl={integrations} path={PATH} canRevert />
      </AdminContext>,
    );
    await user.click(screen.getByRole('button', { name: /history/i }));
    const entries = await screen.findAllByTestId('history-entry');
    await user.click(within(entries[2]).getByTestId('history-revert'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/revert the record/i);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: /revert to this/i }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', url: `/api/1${PATH}/history/h1/revert` }]));
    await vi.waitFor(() => expect(calls.filter((c) => c.url.endsWith('/history'))).toHaveLength(2));
  });

  it('offers no revert without the update bit', async () => {
    stubApi();
    const user = userEvent.setup();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <HistoryPanel decl={integrations} path={PATH} canRevert={false} />
      </AdminContext>,
    );
    await user.click(screen.getByRole('button', { name: /history/i }));
    await screen.findAllByTestId('history-entry');
    expect(screen.queryAllByTestId('history-revert')).toEqual([]);
  });
});
