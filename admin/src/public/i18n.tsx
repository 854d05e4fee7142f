import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import en from '../i18n/en';
import { detectLocale, storeLocale, type Locale } from '../i18n/locale';
import { createTranslator, errorTextWith, loadMessages, type Messages, type Translate } from '../i18n/tiny';

interface PublicI18n {
  t: Translate;
  exists: (key: string) => boolean;
  locale: Locale;
  setLocale: (locale: Locale) => void;
  errorText: (body: { code?: string; message?: string } | undefined | null) => string;
}

const english = createTranslator(en as unknown as Messages, 'en');
const Context = createContext<PublicI18n>({
  ...english,
  setLocale: () => undefined,
  errorText: (body) => errorTextWith(english, body),
});

/** Translations for the public pages; the choice is shared with react-admin's store. */
export function PublicI18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(detectLocale);
  const [messages, setMessages] = useState<{ locale: Locale; messages: Messages } | undefined>(locale === 'en' ? { locale: 'en', messages: en as unknown as Messages } : undefined);
  useEffect(() => {
    let alive = true;
    loadMessages(locale).then((m) => alive && setMessages({ locale, messages: m }));
    return () => {
      alive = false;
    };
  }, [locale]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const setLocale = useCallback((l: Locale) => {
    storeLocale(l);
    setLocaleState(l);
  }, []);
  const value = useMemo<PublicI18n | undefined>(() => {
    if (!messages) return undefined;
    const tr = createTranslator(messages.messages, messages.locale);
    return { ...tr, setLocale, errorText: (body) => errorTextWith(tr, body) };
  }, [messages, setLocale]);
  // Until Dutch has loaded (a few KB), show nothing rather than English flashing by.
  if (!value) return null;
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export const usePublicI18n = () => useContext(Context);
