import { useMemo } from 'react';
import { createTranslator } from '../i18n/tiny';
import { usePublicI18n } from './i18n';

/**
 * Where the verification page sends a user who signed up from the capture app ('/app'), kept in this browser's
 * localStorage by the sign-up page (the mailed link has no room for it: its address is the contract's). VerifyPage
 * reads the same key (its own copy of the name, so it loads none of this; test/admin/signupPage.test.tsx compares).
 */
export const AFTER_VERIFY_KEY = 'ls.after_verify';

/**
 * The sign-up page's own words (English and Dutch), loaded with the page's chunk, so the sign-in page does not carry
 * them: its JavaScript budget is full (the title is in i18n/en.ts and nl.ts: PublicShell's document title). The error text is the API's `message` (api/services/signup.ts).
 */
const en = {
  subtitle: "Use your work e-mail address: you join your company's Leadstage account.",
  email: 'Work e-mail',
  email_hint: 'For example name@yourcompany.com',
  first_name: 'First name',
  last_name: 'Last name',
  password: 'Password',
  password_confirm: 'Confirm the password',
  hint: 'At least {{min}} characters.',
  submit: 'Create account',
  submitting: 'Creating the account…',
  have_account: 'Already have an account?',
  sign_in: 'Sign in',
  no_account_title: 'No account for {{domain}}',
  sent_title: 'Activation sent',
  sent_to: 'We sent an activation link to',
  sent_next: 'Open it to activate your account, then sign in.',
  sent_exists: 'Already have an account with this address? Then the e-mail says so, with a link to choose a new password.',
  resend: 'Resend the activation link',
  resend_sent: 'If this address is still waiting for activation, a new link is on its way.',
  back_to_app: 'Back to Leadstage Capture',
  other_address: 'Use another address',
  error_company_has_no_account: 'Your company has no account yet; ask your event manager for an invitation',
};

export type SignupTexts = typeof en;

const nl: SignupTexts = {
  subtitle: 'Gebruik je werkadres: je sluit aan bij het Leadstage-account van je bedrijf.',
  email: 'Werk-e-mailadres',
  email_hint: 'Bijvoorbeeld naam@jouwbedrijf.nl',
  first_name: 'Voornaam',
  last_name: 'Achternaam',
  password: 'Wachtwoord',
  password_confirm: 'Bevestig het wachtwoord',
  hint: 'Minstens {{min}} tekens.',
  submit: 'Account aanmaken',
  submitting: 'Account wordt aangemaakt…',
  have_account: 'Heb je al een account?',
  sign_in: 'Inloggen',
  no_account_title: 'Geen account voor {{domain}}',
  sent_title: 'Activatielink verstuurd',
  sent_to: 'We hebben een activatielink gestuurd naar',
  sent_next: 'Open die om je account te activeren en log daarna in.',
  sent_exists: 'Heb je al een account met dit adres? Dan staat dat in de e-mail, met een link om een nieuw wachtwoord te kiezen.',
  resend: 'Activatielink opnieuw sturen',
  resend_sent: 'Als dit adres nog op activatie wacht, is er een nieuwe link onderweg.',
  back_to_app: 'Terug naar Leadstage Capture',
  other_address: 'Een ander adres gebruiken',
  error_company_has_no_account: 'Je bedrijf heeft nog geen account; vraag je evenementmanager om een uitnodiging',
};

export const SIGNUP_TEXTS: Record<'en' | 'nl', SignupTexts> = { en, nl };

/** The page's words in the visitor's language (`s`), beside the public pages' shared ones (`t`: field errors). */
export function useSignupTexts() {
  const shared = usePublicI18n();
  const { locale, errorText } = shared;
  return useMemo(() => {
    const own = createTranslator(SIGNUP_TEXTS[locale] as unknown as Record<string, unknown>, locale, SIGNUP_TEXTS.en as unknown as Record<string, unknown>);
    const error = (body: { code?: string; message?: string }) => (own.exists(`error_${body.code}`) ? own.t(`error_${body.code}`) : errorText(body));
    return { s: own.t, t: shared.t, error };
  }, [locale, errorText, shared.t]);
}
