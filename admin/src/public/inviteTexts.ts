import { useMemo } from 'react';
import { createTranslator, type Translate } from '../i18n/tiny';
import { usePublicI18n } from './i18n';

/**
 * The invitation page's own words (English and Dutch), loaded with the page's chunk, so the sign-in page does not
 * carry them (its JavaScript budget is full). Keys as before: ls.invite.*; the title stays in i18n/en.ts and nl.ts
 * (the document title of PublicShell).
 */
const en = {
  ls: {
    invite: {
      loading: 'Checking the invitation…',
      heading: 'Join {{account}}',
      intro: 'You are invited to join {{account}} as {{role}}.',
      email: 'Invited address',
      new_user: 'Choose your name and a password to create your user and join.',
      first_name: 'First name',
      last_name: 'Last name',
      password: 'Password',
      password_confirm: 'Confirm the password',
      hint: 'At least {{min}} characters.',
      submit: 'Create my user and join',
      submitting: 'Joining…',
      existing_user: 'You already have a user with {{email}}. Sign in with it to accept the invitation.',
      signed_in_as: 'You are signed in as {{email}}.',
      accept: 'Accept the invitation',
      accepting: 'Accepting…',
      other_user: 'You are signed in as {{current}}, but this invitation is for {{email}}.',
      switch_user: 'Sign out and sign in as {{email}}',
      invalid_text: 'The link may have been used already, revoked, or have expired. Ask the person who invited you for a new invitation.',
    },
  },
};

type InviteTexts = typeof en;

const nl: InviteTexts = {
  ls: {
    invite: {
      loading: 'De uitnodiging wordt gecontroleerd…',
      heading: 'Word lid van {{account}}',
      intro: 'Je bent uitgenodigd om lid te worden van {{account}} als {{role}}.',
      email: 'Uitgenodigd adres',
      new_user: 'Kies je naam en een wachtwoord om je gebruiker aan te maken en lid te worden.',
      first_name: 'Voornaam',
      last_name: 'Achternaam',
      password: 'Wachtwoord',
      password_confirm: 'Bevestig het wachtwoord',
      hint: 'Minstens {{min}} tekens.',
      submit: 'Maak mijn gebruiker aan en word lid',
      submitting: 'Bezig met aanmelden…',
      existing_user: 'Je hebt al een gebruiker met {{email}}. Log daarmee in om de uitnodiging te accepteren.',
      signed_in_as: 'Je bent ingelogd als {{email}}.',
      accept: 'Uitnodiging accepteren',
      accepting: 'Bezig met accepteren…',
      other_user: 'Je bent ingelogd als {{current}}, maar deze uitnodiging is voor {{email}}.',
      switch_user: 'Uitloggen en inloggen als {{email}}',
      invalid_text: 'De link is misschien al gebruikt, ingetrokken of verlopen. Vraag degene die je uitnodigde om een nieuwe uitnodiging.',
    },
  },
};

const INVITE_TEXTS: Record<'en' | 'nl', InviteTexts> = { en, nl };

/** The public pages' i18n, with the invitation page's own words first. */
export function useInviteI18n() {
  const shared = usePublicI18n();
  return useMemo(() => {
    const own = createTranslator(INVITE_TEXTS[shared.locale] as unknown as Record<string, unknown>, shared.locale, INVITE_TEXTS.en as unknown as Record<string, unknown>);
    const t: Translate = (key, vars) => (own.exists(key) ? own.t(key, vars) : shared.t(key, vars));
    return { ...shared, t };
  }, [shared]);
}
