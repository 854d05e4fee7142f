import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { FormStylePreview, PREVIEW_SANDBOX, previewUrl } from '../../admin/src/formStyles/FormStylePreview';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const A = '11111111-1111-4111-8111-111111111111';
const S = '22222222-2222-4222-8222-222222222222';
const F1 = '44444444-4444-4444-8444-444444444444';
const F2 = '55555555-5555-4555-8555-555555555555';

function serveForms(status = 200) {
  const fetcher = vi.fn(async (url: string) =>
    url === `/api/1/accounts/${A}/forms` && status === 200
      ? Response.json([
          { id: F2, f_title: 'Visitor details', f_name: 'visitors' },
          { id: F1, f_title: 'Booth survey', f_name: 'survey' },
        ])
      : Response.json({ code: 'forbidden', message: 'No' }, { status: 403 }),
  );
  vi.stubGlobal('fetch', fetcher);
  return fetcher;
}

const inAdmin = (ui: React.ReactNode) =>
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      {ui}
    </AdminContext>,
  );
const frame = () => screen.getByTitle('The public page in this style') as HTMLIFrameElement;

describe('FormStylePreview', () => {
  it('frames the preview page at phone width in a sandbox without forms, pop-ups or top navigation', async () => {
    serveForms();
    inAdmin(<FormStylePreview accountId={A} styleId={S} version={1} />);
    const f = frame();
    expect(f.getAttribute('src')).toBe(`/preview/form-styles/${A}/${S}?view=form&v=1`);
    expect(f.getAttribute('sandbox')).toBe('allow-same-origin allow-scripts');
    expect(PREVIEW_SANDBOX).not.toMatch(/allow-(forms|popups|top-navigation|modals|downloads)/);
    expect(f.getAttribute('width')).toBe('375');
    expect(screen.getByRole('link', { name: /Open in a new tab/ }).getAttribute('href')).toBe(f.getAttribute('src'));
    // the account's forms, by title, after the event's own registration form
    const picker = screen.getByRole('combobox', { name: 'Form' });
    await within(picker).findByRole('option', { name: 'Visitor details' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(["The event's registration form", 'Booth survey', 'Visitor details']);
  });

  it('switches width, page and form, and reloads the frame when the style is saved', async () => {
    serveForms();
    const user = userEvent.setup();
    const { rerender } = inAdmin(<FormStylePreview accountId={A} styleId={S} version={1} />);
    await user.click(screen.getByRole('button', { name: 'Desktop (1200 px)' }));
    expect(frame().getAttribute('width')).toBe('1200');
    await user.click(screen.getByRole('button', { name: 'Thanks page' }));
    expect(frame().getAttribute('src')).toBe(`/preview/form-styles/${A}/${S}?view=thanks&v=1`);
    await within(screen.getByRole('combobox', { name: 'Form' })).findByRole('option', { name: 'Booth survey' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Form' }), 'Booth survey');
    expect(frame().getAttribute('src')).toBe(`/preview/form-styles/${A}/${S}?form=${F1}&view=thanks&v=1`);
    const before = frame();
    rerender(
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <FormStylePreview accountId={A} styleId={S} version={2} />
      </AdminContext>,
    );
    expect(frame()).not.toBe(before); // a new frame: the page and its stylesheet load again
    expect(frame().getAttribute('src')).toBe(`/preview/form-styles/${A}/${S}?form=${F1}&view=thanks&v=2`);
    await user.click(screen.getByRole('button', { name: 'Phone (375 px)' }));
    expect(frame().getAttribute('width')).toBe('375');
  });

  it('starts with the given form; says so when the forms cannot be listed, and before the style is saved', async () => {
    serveForms(403);
    const { unmount } = inAdmin(<FormStylePreview accountId={A} styleId={S} formId={F2} />);
    expect(frame().getAttribute('src')).toBe(`/preview/form-styles/${A}/${S}?form=${F2}&view=form`);
    expect(await screen.findByText('The forms of this account could not be loaded.')).toBeTruthy();
    unmount();
    inAdmin(<FormStylePreview accountId={A} />);
    expect(screen.getByText('Save the style to see a preview of the public page.')).toBeTruthy();
    expect(screen.queryByTitle('The public page in this style')).toBeNull();
  });

  it('builds the preview address with only safe parts', () => {
    expect(previewUrl('a b', 's/t', { view: 'thanks', version: '<x>' })).toBe('/preview/form-styles/a%20b/s%2Ft?view=thanks');
  });
});
