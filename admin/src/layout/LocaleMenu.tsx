import { useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TranslateIcon from '@mui/icons-material/Translate';
import { useLocaleState, useLocales, useTranslate } from 'react-admin';

/** The language menu; on a phone only the language code shows, so the page title keeps its room. */
export function LocaleMenu() {
  const translate = useTranslate();
  const languages = useLocales();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = languages.find((l) => l.locale === locale);
  return (
    <>
      <Button
        color="inherit"
        size="small"
        startIcon={<TranslateIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
        aria-label={`${translate('ls.common.language')}: ${current?.name ?? locale}`}
        data-testid="locale-menu"
        sx={{ minWidth: 0 }}
      >
        <span aria-hidden>
          <span className="ls-long">{current?.name}</span>
          <span className="ls-short">{locale.toUpperCase()}</span>
        </span>
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {languages.map((l) => (
          <MenuItem
            key={l.locale}
            lang={l.locale}
            selected={l.locale === locale}
            onClick={() => {
              setAnchor(null);
              setLocale(l.locale);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
