import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { renderTemplate, type MailLocale } from '../mail/templates.js';
import { mailVars } from '../mail/mailer.js';
import { enqueueMail } from '../mail/outbox.js';
import { addMembership } from '../console/members.js';
import type { SignupInput } from '../../resources/signup.js';
import { hashPassword } from './passwords.js';
import { createToken } from './tokens.js';
import { findUserByEmail, isEmailConflict, resetLink, verifyLink } from './users.js';

/**
 * The contract's text of the 422 (platform-and-flows.md section 3). The sign-up page has it in English and Dutch
 * (admin/src/public/signupTexts.ts), not the sign-in page's catalogue (resources/messages.ts): that page's budget is full.
 */
export const COMPANY_HAS_NO_ACCOUNT = 'Your company has no account yet; ask your event manager for an invitation';

export const companyHasNoAccount = () => new ApiError(422, 'company_has_no_account', COMPANY_HAS_NO_ACCOUNT);

/** The part of an address after its last @, lower case. */
export const domainOf = (email: string): string =>
  email
    .trim()
    .slice(email.trim().lastIndexOf('@') + 1)
    .toLowerCase();

/** The enabled accounts whose a_email_domain is this address's domain (case-insensitive, index accounts_email_domain). */
export async function enabledAccountsOfDomain(db: Knex | Knex.Transaction, email: string): Promise<{ a_id: string; a_name: string }[]> {
  const domain = domainOf(email);
  if (!domain) return [];
  return db('accounts').whereRaw('lower(a_email_domain) = ?', [domain]).andWhere('a_is_enabled', true).orderBy('a_name').select('a_id', 'a_name');
}

/**
 * Makes a user with a just-verified address a member (role member) of every enabled account of its domain that it is
 * not in yet. Runs inside the verification's transaction. Answers the account ids joined.
 */
export async function joinDomainAccounts(trx: Knex.Transaction, userId: string): Promise<string[]> {
  const user = await trx('users').where('u_id', userId).first('u_email');
  if (!user) return [];
  const accounts = await enabledAccountsOfDomain(trx, user.u_email);
  if (accounts.length === 0) return [];
  const already = new Set<string>(
    await trx('account_users')
      .where('au_userid', userId)
      .whereIn(
        'au_accountid',
        accounts.map((a) => a.a_id),
      )
      .pluck('au_accountid'),
  );
  const joined: string[] = [];
  for (const account of accounts) {
    if (already.has(account.a_id)) continue;
    try {
      await addMembership(trx, account.a_id, { au_userid: userId, au_role: 'member' });
      joined.push(account.a_id);
    } catch (err) {
      // Another request made it a member meanwhile: that is what we wanted.
      if (!(err instanceof ApiError && err.code === 'member_already_exists')) throw err;
    }
  }
  return joined;
}

/** The two mails of the sign-up: the activation link to a new address, or "an account exists" with a reset link. */
export interface SignupMail {
  template: 'signup' | 'account_exists';
  to: string;
  firstName: string;
  link: string;
  locale: MailLocale;
}

/**
 * The one place the sign-up's mails leave: rendered, then on the durable mail queue (api/mail/outbox.ts), retried
 * while the relay fails; the answer does not wait for the relay (nor tells by its time whether the address had a user).
 */
export async function sendSignupMail(app: AppContext, mail: SignupMail): Promise<void> {
  const vars = { ...mailVars(app.config), first_name: mail.firstName || mail.to, email: mail.to, link: mail.link };
  const rendered = renderTemplate(mail.template, vars, mail.locale);
  await enqueueMail(app, { to: mail.to, subject: rendered.subject, html: rendered.html, text: rendered.text, label: mail.template, link: mail.link });
}

/**
 * POST /auth/signup after validation and rate limits (platform-and-flows.md section 3). The domain must belong to an
 * enabled account (else 422 company_has_no_account, nothing stored). A new address becomes an unverified member user
 * and gets the activation link; an address that has a user gets "an account exists" with a reset link (an enabled
 * user only, like forgot-password). Both answer the same, and both hash the password, so neither the answer nor its
 * time tells whether the address had a user.
 */
export async function signUp(app: AppContext, input: SignupInput, locale: MailLocale): Promise<void> {
  if ((await enabledAccountsOfDomain(app.db, input.u_email)).length === 0) throw companyHasNoAccount();
  const hash = await hashPassword(input.u_password);
  const existing = await findUserByEmail(app.db, input.u_email);
  if (existing) return accountExists(app, existing, locale);
  let created: { userId: string; token: string } | undefined;
  try {
    created = await app.db.transaction(async (trx) => {
      const [row] = await trx('users')
        .insert({
          u_first_name: input.u_first_name,
          u_last_name: input.u_last_name,
          u_email: input.u_email,
          u_role: 'member',
          u_is_verified: false,
          u_is_enabled: true,
          u_password: hash,
        })
        .returning(['u_id']);
      return { userId: row.u_id as string, token: await createToken(trx, 'verify', row.u_id) };
    });
  } catch (err) {
    // A second sign-up of the same address won the race: the address has a user now.
    if (!isEmailConflict(err)) throw err;
    const winner = await findUserByEmail(app.db, input.u_email);
    if (winner) return accountExists(app, winner, locale);
    throw err;
  }
  await sendSignupMail(app, { template: 'signup', to: input.u_email, firstName: input.u_first_name, link: verifyLink(app, created.token), locale });
}

async function accountExists(app: AppContext, user: { u_id: string; u_email: string; u_first_name: string; u_is_enabled: boolean }, locale: MailLocale): Promise<void> {
  if (!user.u_is_enabled) return;
  const token = await createToken(app.db, 'reset', user.u_id);
  await sendSignupMail(app, { template: 'account_exists', to: user.u_email, firstName: user.u_first_name, link: resetLink(app, token), locale });
}
