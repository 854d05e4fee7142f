/**
 * Stands in for the `CssVarsProvider` of MUI's `ThemeProviderWithVars` where `ThemeProvider` imports it (admin/vite.config.ts):
 * `ThemeProvider` renders it only for a theme with `colorSchemes`, which `createTheme` gives a theme only when its
 * options name `colorSchemes` (Leadstage's and react-admin's themes give a `palette`), yet imports it always, with
 * MUI's color-scheme storage and CSS-variable provider (about 4 KiB gzipped on every signed-in page). A file apart from noCssVarsTheme.ts, which the
 * public pages load too.
 */
export function CssVarsProvider(): never {
  throw new Error('Leadstage builds MUI without CSS-variable themes: remove the ThemeProviderWithVars alias in admin/vite.config.ts to use colorSchemes');
}
