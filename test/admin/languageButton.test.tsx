import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type I18nProvider } from 'react-admin';
import { PublicShell } from '../../admin/src/public/PublicShell';
import { LocaleMenu } from '../../admin/src/layout/LocaleMenu';
import { LOCALE_STORE_KEY } from '../../admin/src/i18n/locale';
import { consoleI18n } from '../helpers/consoleScreens';

/**
 * The language button means one thing everywhere (issue 18): it names the language the page is in, "Language:
 * English", and opens the choice; on the console (react-admin's menu) and on the public pages (sign-in, sign-up…).
 */
let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  localStorage.removeItem(LOCALE_STORE_KEY);
});

describe('the language button', () => {
  it('on a public page names the current language, and the choice switches the page to the other one', async () => {
    localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify('en'));
    const user = userEvent.setup();
    render(
      <PublicShell title="ls.auth.sign_in">
        <p>page</p>
      </PublicShell>,
    );
    const button = await screen.findByRole('button', { name: 'Language: English' });
    expect(button.textContent).toBe('English');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const dutch = screen.getByRole('button', { name: 'Nederlands' });
    expect(dutch.getAttribute('lang')).toBe('nl');
    await user.click(dutch);
    // now in Dutch, the button says so in Dutch
    expect((await screen.findByRole('button', { name: 'Taal: Nederlands' })).textContent).toBe('Nederlands');
    expect(document.documentElement.lang).toBe('nl');
    expect(screen.queryByRole('button', { name: 'English' })).toBeNull(); // the choice closed
    // Escape closes the choice too
    await user.click(screen.getByRole('button', { name: 'Taal: Nederlands' }));
    expect(screen.getByRole('button', { name: 'English' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'English' })).toBeNull());
  });

  it('in the console names the current language the same way', async () => {
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <LocaleMenu />
      </AdminContext>,
    );
    expect((await screen.findByTestId('locale-menu')).getAttribute('aria-label')).toBe('Language: English');
  });
});
