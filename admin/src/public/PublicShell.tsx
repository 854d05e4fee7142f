import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { createTheme, type Theme } from '@mui/material/styles';
// MUI's material ThemeProvider also carries the CSS-variables machinery; the plain one is all these pages need.
import { ThemeProvider } from '@mui/system';
import GlobalStyles from '@mui/material/GlobalStyles';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { darkThemeOptions, lightThemeOptions, storedThemeName, storeThemeName, type ThemeName } from '../theme';
import { BrandMark } from '../layout/BrandMark';
import { PublicI18nProvider, usePublicI18n } from './i18n';
import { PlainButton } from './ui';

const LOCALES = ['en', 'nl'] as const;

/**
 * The language button, as in the console: it names the language the page is in ("Language: English") and opens the
 * choice of languages, each named in its own language (a disclosure: no menu library on these pages).
 */
function LanguageChoice() {
  const { t, locale, setLocale } = usePublicI18n();
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ position: 'relative' }} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <PlainButton
        variant="text"
        size="small"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls="ls-language-choice"
        aria-label={`${t('ls.common.language')}: ${t(`ls.locale.${locale}`)}`}
        data-testid="language-button"
      >
        {t(`ls.locale.${locale}`)}
      </PlainButton>
      {open && (
        <Box id="ls-language-choice" role="group" aria-label={t('ls.common.language')} sx={{ display: 'inline-flex', gap: 0.5 }}>
          {LOCALES.filter((l) => l !== locale).map((l) => (
            <PlainButton
              key={l}
              variant="text"
              size="small"
              lang={l}
              onClick={() => {
                setOpen(false);
                setLocale(l);
              }}
            >
              {t(`ls.locale.${l}`)}
            </PlainButton>
          ))}
        </Box>
      )}
    </Box>
  );
}

function Toolbar({ theme, onTheme }: { theme: ThemeName; onTheme: (t: ThemeName) => void }) {
  const { t } = usePublicI18n();
  const themeLabel = theme === 'dark' ? t('ls.common.theme_light') : t('ls.common.theme_dark');
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'center', mt: 2, color: 'text.secondary' }}>
      <LanguageChoice />
      <PlainButton variant="text" size="small" onClick={() => onTheme(theme === 'dark' ? 'light' : 'dark')} title={themeLabel}>
        <span aria-hidden style={{ fontSize: 16, lineHeight: 1 }}>
          {theme === 'dark' ? '☀' : '☾'}
        </span>
        {themeLabel}
      </PlainButton>
    </Box>
  );
}

function Title({ title }: { title?: string }) {
  const { t } = usePublicI18n();
  useEffect(() => {
    document.title = title ? `${t(title)} · Leadstage` : 'Leadstage';
  }, [t, title]);
  return null;
}

/**
 * The part of MUI's CssBaseline these pages need (its full set of rules costs the sign-in page about 1 KB gzipped).
 */
const baseline = (theme: Theme) => ({
  html: { WebkitFontSmoothing: 'antialiased', MozOsxFontSmoothing: 'grayscale', boxSizing: 'border-box', WebkitTextSizeAdjust: '100%', colorScheme: theme.palette.mode },
  '*, *::before, *::after': { boxSizing: 'inherit' },
  body: { margin: 0, color: theme.palette.text.primary, ...theme.typography.body1, backgroundColor: theme.palette.background.default },
});

/**
 * The frame of the pages a visitor sees without the admin (sign-in, logout, e-mail confirmation, password reset):
 * plain MUI with Leadstage's theme, a language switch and a light/dark switch, no react-admin and no router.
 */
export function PublicShell({ title, children, wide }: { title?: string; children: ReactNode; /** A wider card (a conversation's thread). */ wide?: boolean }) {
  const [themeName, setThemeName] = useState<ThemeName>(storedThemeName);
  const theme = useMemo(() => createTheme(themeName === 'dark' ? darkThemeOptions : lightThemeOptions), [themeName]);
  const chooseTheme = (name: ThemeName) => {
    storeThemeName(name);
    setThemeName(name);
  };
  return (
    <PublicI18nProvider>
      <ThemeProvider theme={theme}>
        <GlobalStyles styles={baseline} />
        <Title title={title} />
        <Box
          component="main"
          sx={{
            minHeight: '100vh',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: { xs: 'flex-start', sm: 'center' },
            px: 2,
            py: { xs: 3, sm: 6 },
            background: (th) =>
              th.palette.mode === 'dark' ? 'radial-gradient(circle at 20% 0%, #1d2a4d 0%, #0f1420 55%)' : 'radial-gradient(circle at 20% 0%, #dfe6ff 0%, #f4f6fb 55%)',
          }}
        >
          <Box sx={{ width: '100%', maxWidth: wide ? 640 : 420 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.25, mb: 3 }}>
              <BrandMark size={36} />
              <Typography variant="h5" component="p" sx={{ fontWeight: 700, letterSpacing: '-0.01em' }}>
                Leadstage
              </Typography>
            </Box>
            <Card sx={{ borderRadius: 3, boxShadow: (th) => (th.palette.mode === 'dark' ? 'none' : '0 12px 40px rgba(23,32,51,0.08)') }}>
              <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>{children}</CardContent>
            </Card>
            <Toolbar theme={themeName} onTheme={chooseTheme} />
          </Box>
        </Box>
      </ThemeProvider>
    </PublicI18nProvider>
  );
}
