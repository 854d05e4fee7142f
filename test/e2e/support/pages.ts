import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Page objects: what a user sees and does on each screen, in the product's words. */

export class LoginScreen {
  constructor(private page: Page) {}
  email = () => this.page.locator('#u_email');
  password = () => this.page.locator('#u_password');
  submit = () => this.page.locator('button[type=submit]');
  failure = () => this.page.getByTestId('login-failure');

  async open() {
    await this.page.goto('/login');
    await this.email().waitFor();
  }

  async signIn(email: string, password: string) {
    await this.email().fill(email);
    await this.password().fill(password);
    await this.submit().click();
  }
}

export class Layout {
  constructor(private page: Page) {}
  /** The side menu's item labels (on a phone the menu is a drawer: open it first). */
  async menuItems(): Promise<string[]> {
    const menu = this.page.locator('.RaMenu-open, .RaMenu-closed').first();
    await menu.waitFor();
    return (await menu.locator('a[role=menuitem], a').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }
  title = () => this.page.locator('#react-admin-title');
  toast = () => this.page.getByTestId('toast');
  notification = () => this.page.locator('.RaNotification-error, .RaNotification-success, [data-testid=toast]').first();
}

export class ListScreen {
  constructor(private page: Page) {}
  search = () => this.page.locator('input[name=q]');
  // On a phone react-admin's SimpleList draws the rows as a plain list inside the list's card.
  rows = () => this.page.locator('.RaDataTable-table tbody tr, .RaSimpleList-root li, .RaList-content > ul > li');
  row = (text: string) => this.rows().filter({ hasText: text }).first();
  async searchFor(q: string) {
    await this.search().fill(q);
    await this.page.waitForURL((u) => decodeURIComponent(u.search).includes(q) || true);
  }
}

export async function fillInput(page: Page, source: string, value: string) {
  const input = page.locator(`[name="${source}"]`).first();
  await input.fill(value);
}

export async function expectVisible(locator: Locator) {
  await locator.waitFor({ state: 'visible' });
  expect(await locator.isVisible()).toBe(true);
}

/** A react-admin input's form control, or a public page's field (ids are generated, so find it by the input's name). */
export const control = (page: Page, name: string) => page.locator('.MuiFormControl-root, .ls-field', { has: page.locator(`[name="${name}"]`) }).first();
export const helperText = async (page: Page, name: string) =>
  (await control(page, name).locator('.MuiFormHelperText-root, .ls-field-helper').allInnerTexts())
    .join(' ')
    .replace(/\u200b/g, '')
    .trim();
/** Opens a react-admin SelectInput and picks the option whose label matches. */
export async function choose(page: Page, name: string, option: string | RegExp) {
  await control(page, name).locator('[role=combobox]').click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}
