import type { ThemeOptions } from '@mui/material/styles';

/**
 * Leadstage's look, shared by the public pages (plain MUI) and react-admin (merged over its default theme).
 * Kept free of react-admin imports so the sign-in page does not load it.
 */
export type ThemeName = 'light' | 'dark';

/** react-admin keeps the chosen theme in its store ("RaStore.theme"); the public pages share it. */
export const THEME_STORE_KEY = 'RaStore.theme';

const shared: ThemeOptions = {
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  breakpoints: { values: { xs: 0, sm: 768, md: 1024, lg: 1200, xl: 1536 } },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { variant: 'outlined', margin: 'dense' } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
  },
};

export const lightThemeOptions: ThemeOptions = {
  ...shared,
  palette: {
    mode: 'light',
    primary: { main: '#2848c7', contrastText: '#ffffff' },
    secondary: { main: '#0f7b6c' },
    background: { default: '#f4f6fb', paper: '#ffffff' },
    text: { primary: '#172033', secondary: '#4a5568' },
    divider: 'rgba(23, 32, 51, 0.12)',
  },
};

export const darkThemeOptions: ThemeOptions = {
  ...shared,
  palette: {
    mode: 'dark',
    primary: { main: '#8ea7ff', contrastText: '#0b1226' },
    secondary: { main: '#4fd1bb' },
    background: { default: '#0f1420', paper: '#171e2e' },
    text: { primary: '#e6eaf3', secondary: '#a5afc4' },
    divider: 'rgba(230, 234, 243, 0.14)',
  },
};

export function storedThemeName(): ThemeName {
  try {
    const stored = JSON.parse(localStorage.getItem(THEME_STORE_KEY) ?? 'null');
    if (stored === 'light' || stored === 'dark') return stored;
  } catch {
    /* no stored choice */
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function storeThemeName(name: ThemeName): void {
  try {
    localStorage.setItem(THEME_STORE_KEY, JSON.stringify(name));
  } catch {
    /* private mode */
  }
}
