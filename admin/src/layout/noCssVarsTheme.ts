/**
 * Stands in for MUI's `createThemeWithVars` in the admin build (admin/vite.config.ts): MUI's `createTheme` calls it
 * only for `cssVariables: true`, which Leadstage never sets (neither do react-admin's themes), yet imports it always,
 * with its CSS-variable machinery (about 3 KB gzipped on every page, the sign-in page too). Setting `cssVariables`
 * some day fails loudly here; remove the alias then.
 */
export default function createThemeWithVars(): never {
  throw new Error('Leadstage builds MUI without CSS-variable themes: remove the createThemeWithVars alias in admin/vite.config.ts to use cssVariables');
}
