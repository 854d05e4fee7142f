import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, TestMemoryRouter, type I18nProvider } from 'react-admin';
import ConsoleMenu from '../../admin/src/console/ConsoleMenu';
import { setSession } from '../../admin/src/providers/session';
import { ACCOUNT, consoleI18n, memoryData, mountConsole, sessionAs } from '../helpers/consoleScreens';

/**
 * README "Add a resource", proved on the console's side: the sponsors module (test/fixtures/sponsors) in a temporary
 * registry gets its menu item, its labels and its generated list and form, with no other file touched.
 */
vi.mock('../../resources/registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../resources/registry')>();
  const { sponsors } = await import('../fixtures/sponsors/sponsors');
  return { ...real, ACCOUNT_RESOURCES: [...real.ACCOUNT_RESOURCES, sponsors], RESOURCES: [...real.RESOURCES, sponsors] };
});

let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  setSession(null);
});

const acme = {
  id: 'sp-1',
  sp_id: 'sp-1',
  sp_title: 'Acme Coffee',
  sp_website: 'https://acme.example.com',
  sp_tier: 'gold',
  sp_is_enabled: true,
  sp_eventid: null,
  sp_logo_assetid: null,
};

describe('a resource added in one module', () => {
  it('has a menu item with its label for a role that reads its group', async () => {
    const session = sessionAs('member', 'member');
    setSession(session);
    const data = memoryData({});
    render(
      <TestMemoryRouter initialEntries={['/']}>
        <AdminContext dataProvider={data.provider} i18nProvider={i18nProvider}>
          <ConsoleMenu accountId={ACCOUNT} />
        </AdminContext>
      </TestMemoryRouter>,
    );
    const menu = await screen.findByTestId('console-menu');
    const item = await within(menu).findByRole('menuitem', { name: 'Sponsors' });
    expect(item.getAttribute('href')).toBe(`/console/${ACCOUNT}/sponsors`);
  });

  it('gets a generated list with its labelled columns and options', async () => {
    mountConsole(sessionAs('member', 'superadmin'), '/sponsors', { sponsors: [acme] }, i18nProvider);
    await waitFor(() => expect(screen.getByText('Acme Coffee')).toBeTruthy());
    for (const column of ['Name', 'Website', 'Tier', 'Shown', 'Event']) expect(screen.getAllByText(column).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Gold').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: /create/i })).toBeTruthy();
  });

  it('gets a generated form that validates with its declaration and saves', async () => {
    const { data, user } = mountConsole(sessionAs('member', 'superadmin'), '/sponsors/new', { sponsors: [] }, i18nProvider);
    const input = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement;
    const helper = (name: string) => (input(name)?.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '').replace(/\u200b/g, '').trim();
    await waitFor(() => expect(input('sp_title')).toBeTruthy());
    expect(screen.getByLabelText(/^Name/)).toBe(input('sp_title'));
    await user.type(input('sp_website'), 'not a web address');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helper('sp_title')).toBe('This field is required'));
    expect(helper('sp_website')).toBe('Please enter a valid URL');
    expect(data.calls.filter((c) => c.method === 'create')).toEqual([]);
    await user.type(input('sp_title'), 'Acme Coffee');
    await user.clear(input('sp_website'));
    await user.type(input('sp_website'), 'https://acme.example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'create')).toBeTruthy());
    expect((data.calls.find((c) => c.method === 'create')!.params as { data: Record<string, unknown> }).data).toMatchObject({
      sp_title: 'Acme Coffee',
      sp_website: 'https://acme.example.com',
      sp_tier: 'silver',
      sp_is_enabled: true,
    });
  });

  it('is offered to nobody whose role lacks its read bit', async () => {
    // An operator took read away from admins (as ops can in the database).
    const session = sessionAs('member', 'admin', { admin: { account_sponsors: 0 } });
    setSession(session);
    render(
      <TestMemoryRouter initialEntries={['/']}>
        <AdminContext dataProvider={memoryData({}).provider} i18nProvider={i18nProvider}>
          <ConsoleMenu accountId={ACCOUNT} />
        </AdminContext>
      </TestMemoryRouter>,
    );
    const menu = await screen.findByTestId('console-menu');
    await within(menu).findByRole('menuitem', { name: 'Events' });
    expect(within(menu).queryByRole('menuitem', { name: 'Sponsors' })).toBeNull();
  });
});
