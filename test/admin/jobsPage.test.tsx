import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { addReactAdminTexts, i18nReady } from '../../admin/src/i18n';

const { default: JobsPage } = await import('../../admin/src/jobs/JobsPage');

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
});

let answer: () => Response;
const calls: string[] = [];
beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(String(url));
      return answer();
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function mount() {
  render(
    <MemoryRouter initialEntries={['/jobs']}>
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <JobsPage />
      </AdminContext>
    </MemoryRouter>,
  );
}

/** The entry admin's job queue page (/jobs, root users): GET /api/1/jobs as totals and a row per job name. */
describe('job queue page', () => {
  it('shows the waiting and failed totals and a row per job, a failed count in the error colour', async () => {
    answer = json(200, {
      code: 'ok',
      waiting: 3,
      failed: 1,
      byName: { 'mail.send': { waiting: 3, failed: 1 }, 'sweep.expired': { waiting: 0, failed: 0 }, 'trash.purge': { waiting: 0, failed: 0 } },
    });
    mount();
    expect((await screen.findByTestId('jobs-waiting')).textContent).toBe('3');
    expect(screen.getByTestId('jobs-failed').textContent).toBe('1');
    expect(calls).toEqual(['/api/1/jobs']);
    const table = screen.getByRole('table', { name: 'Job queue' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['JobWaitingFailed', 'mail.send31', 'sweep.expired00', 'trash.purge00']);
    const failedCell = within(rows[1]).getAllByRole('cell')[2];
    expect(getComputedStyle(failedCell).fontWeight).toBe('600');
    expect(screen.getByText(/Mail that is sent in the background/)).toBeTruthy();
  });

  it("a caller who is not root sees the API's refusal, no figures", async () => {
    answer = json(403, { code: 'forbidden', message: 'Only a root user can see the job queue' });
    mount();
    expect((await screen.findByRole('alert')).textContent).toMatch(/permission|root/i);
    expect(screen.queryByTestId('jobs-waiting')).toBeNull();
  });
});
