import { Router, type Request, type Response } from 'express';
import { ctx, type AppContext } from '../context.js';
import { ApiError, fieldErrors, validate } from '../errors.js';
import { clearStateCookies, requireUser } from '../middleware/auth.js';
import { endSession, endSessions, SIGNED_IN_TTL_MS, startSession } from '../middleware/session.js';
import { csrfInvalid } from '../middleware/csrf.js';
import { emailOnlySchema, loginSchema, resetPasswordSchema } from '../../resources/auth.js';
import { signupSchema } from '../../resources/signup.js';
import { ROLE_RANK, type Role } from '../../resources/permissions.js';
import { needsRehash, hashPassword, verifyPassword } from '../services/passwords.js';
import { consumeToken, createToken, findToken } from '../services/tokens.js';
import { createGuestToken, isValidGuestToken } from '../services/guestTokens.js';
import { findUserByEmail, sendReset, sendVerification, USER_COLUMNS } from '../services/users.js';
import { joinDomainAccounts, signUp } from '../services/signup.js';

export const GUEST_TOKEN_HEADER = 'x-guest-token';

/** The user's memberships with the account fields (GET /auth/accounts). */
async function membershipsOf(app: AppContext, userId: string) {
  return app
    .db('account_users')
    .join('accounts', 'a_id', 'au_accountid')
    .where('au_userid', userId)
    .orderByRaw('lower(a_name)')
    .select('accounts.*', 'au_id', 'au_role', 'au_userid', 'au_accountid');
}

function highestRole(roles: string[]): string {
  return roles.sort((a, b) => (ROLE_RANK[b as Role] ?? 0) - (ROLE_RANK[a as Role] ?? 0))[0] ?? '';
}

/** The session answer: user, the caller's entry permissions, memberships and client settings. */
async function sessionBody(app: AppContext, userId: string) {
  const user = await app.db('users').where('u_id', userId).first(USER_COLUMNS);
  const accounts = await membershipsOf(app, userId);
  return {
    code: 'ok',
    user: { ...user, id: user.u_id },
    permissions: await app.permissions.grants(user.u_role),
    // The stored grants of every role the user holds (its own and its membership roles), so the UI asks can()
    // about any of its accounts with the same matrix the API uses.
    roleGrants: Object.fromEntries(
      await Promise.all([...new Set([user.u_role, ...accounts.map((a: { au_role: string }) => a.au_role)])].map(async (role) => [role, await app.permissions.grants(role)])),
    ),
    accounts,
    settings: { passwordMinLength: app.config.passwordMinLength },
  };
}

function setStateCookies(req: Request, res: Response, role: string, accountRole: string): void {
  const app = ctx(req);
  const opts = { path: '/', sameSite: 'lax' as const, secure: app.config.secureCookies, httpOnly: false, maxAge: SIGNED_IN_TTL_MS };
  res.cookie('is_logged_in', '1', opts);
  res.cookie('user_role', role, opts);
  res.cookie('account_role', accountRole, opts);
}

/** The session answer for a signed-in user, with the readable state cookies brought up to date (e.g. after joining an account). */
export async function sessionAnswer(req: Request, res: Response, userId: string) {
  const body = await sessionBody(ctx(req), userId);
  setStateCookies(req, res, body.user.u_role, highestRole(body.accounts.map((a: { au_role: string }) => a.au_role)) || 'none');
  return body;
}

/** Signs a user in (sign-in, accepting an invite): a new session (no fixation), a CSRF token bound to it, the session answer. */
export async function signIn(req: Request, res: Response, userId: string) {
  await startSession(req, res, userId, { loginAt: Date.now() });
  ctx(req).issueCsrf(req, res);
  return sessionAnswer(req, res, userId);
}

export function authRouter(): Router {
  const router = Router();

  router.post('/web', async (req, res) => {
    const app = ctx(req);
    const parsed = loginSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError(400, 'invalid_login_info', 'Failed to validate login info', fieldErrors(parsed.error));
    const { u_email, u_password } = parsed.data;
    const { windowSeconds, loginPerEmail, loginPerIp } = app.config.rateLimit;
    const emailKey = `login:email:${u_email.toLowerCase()}`;
    const ipHit = await app.limiter.hit(`login:ip:${req.ip}`, windowSeconds);
    if (ipHit.points > loginPerIp || (await app.limiter.peek(emailKey)) >= loginPerEmail) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((ipHit.resetAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, 'too_many_attempts', 'Too many login attempts, please wait a few minutes and try again');
    }
    const user = await findUserByEmail(app.db, u_email);
    // An unknown e-mail verifies against a dummy hash: same answer, similar time.
    const ok = await verifyPassword(user?.u_password, u_password);
    if (!user || !ok) {
      await app.limiter.hit(emailKey, windowSeconds);
      throw new ApiError(401, 'invalid_credentials', 'The email and password combination does not match');
    }
    if (!user.u_is_verified) throw new ApiError(403, 'user_not_verified', 'User account not yet activated');
    if (!user.u_is_enabled) throw new ApiError(403, 'user_disabled', 'This user account has been disabled');
    await app.limiter.reset(emailKey);
    if (needsRehash(user.u_password))
      await app
        .db('users')
        .where('u_id', user.u_id)
        .update({ u_password: await hashPassword(u_password) });

    res.json(await signIn(req, res, user.u_id));
  });

  const logout = async (req: Request, res: Response) => {
    await endSession(req, res);
    clearStateCookies(res);
    ctx(req).issueCsrf(req, res); // a visitor's token again
    res.json({ code: 'ok' });
  };
  // GET (spec 7) changes state, so it is accepted only from our own pages: the browser says so (Fetch Metadata), or
  // the call carries the CSRF header. A cross-site link or image cannot sign anyone out. POST goes through the CSRF check.
  router.get('/logout', (req, res, next) => {
    const site = req.get('sec-fetch-site');
    if (site === 'same-origin' || site === 'none' || ctx(req).csrfHeaderValid(req)) return logout(req, res);
    next(csrfInvalid());
  });
  router.post('/logout', logout);

  router.get('/me', requireUser, async (req, res) => {
    res.json(await sessionBody(ctx(req), req.user!.u_id));
  });

  router.get('/accounts', requireUser, async (req, res) => {
    res.json(await membershipsOf(ctx(req), req.user!.u_id));
  });

  router.get('/guest-token', async (req, res) => {
    // settings: the reset page checks the password length before sending (spec 5).
    const { config } = ctx(req);
    res.json({ code: 'ok', token: createGuestToken(config.sessionSecret), settings: { passwordMinLength: config.passwordMinLength } });
  });

  router.put('/reset-password', async (req, res) => {
    const app = ctx(req);
    if (!isValidGuestToken(app.config.sessionSecret, req.get(GUEST_TOKEN_HEADER)))
      throw new ApiError(403, 'guest_token_invalid', 'The page has expired, please reload it and try again');
    const body = validate(resetPasswordSchema(app.config.passwordMinLength), req.body);
    const token = await consumeToken(app.db, 'reset', body.token);
    if (!token?.t_userid) throw new ApiError(400, 'invalid_token', 'Invalid token', { token: 'error_token_invalid' });
    await app.db.transaction(async (trx) => {
      // The link came by e-mail, so following it also proves the address (and a first proof joins the domain's accounts).
      const before = await trx('users').where('u_id', token.t_userid).first('u_is_verified');
      await trx('users')
        .where('u_id', token.t_userid)
        .update({ u_password: await hashPassword(body.password), u_is_verified: true, u_updated_at: trx.fn.now() });
      if (before && !before.u_is_verified) await joinDomainAccounts(trx, token.t_userid!);
      await trx('tokens').where({ t_userid: token.t_userid, t_type: 'reset' }).whereNull('t_used_at').update({ t_used_at: trx.fn.now() });
      await endSessions(trx, token.t_userid!);
    });
    res.json({ code: 'ok' });
  });

  /**
   * Self sign-up (platform-and-flows.md section 3): 201 {code: activation_sent} for a new address and for one that has a
   * user alike; 422 company_has_no_account when no enabled account has the domain. Limited per address
   * (SIGNUP_LIMIT_PER_IP) and per e-mail (SIGNUP_LIMIT_PER_EMAIL) in RATE_LIMIT_WINDOW_SECONDS: 429 too_many_attempts.
   */
  router.post('/signup', async (req, res) => {
    const app = ctx(req);
    const input = validate(signupSchema(app.config.passwordMinLength), req.body);
    const { windowSeconds } = app.config.rateLimit;
    const ipHit = await app.limiter.hit(`signup:ip:${req.ip}`, windowSeconds);
    const emailHit = ipHit.points > app.config.signupLimit.perIp ? undefined : await app.limiter.hit(`signup:email:${input.u_email.toLowerCase()}`, windowSeconds);
    if (!emailHit || emailHit.points > app.config.signupLimit.perEmail) {
      const resetAt = (emailHit ?? ipHit).resetAt;
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
    }
    await signUp(app, input, req.acceptsLanguages('en', 'nl') === 'nl' ? 'nl' : 'en');
    res.status(201).json({ code: 'activation_sent' });
  });

  /** Answers the same whether or not the address exists. */
  router.post('/forgot-password', async (req, res) => {
    const app = ctx(req);
    const { u_email } = validate(emailOnlySchema, req.body);
    const hit = await app.limiter.hit(`mail:reset:${u_email.toLowerCase()}`, app.config.rateLimit.windowSeconds);
    if (hit.points <= app.config.rateLimit.mailPerEmail) {
      const user = await findUserByEmail(app.db, u_email);
      if (user && user.u_is_enabled) {
        const token = await createToken(app.db, 'reset', user.u_id);
        await sendReset(app, user, token);
      }
    }
    res.json({ code: 'ok' });
  });

  /** Resend of the activation link for an unverified user; answers the same whatever the address. */
  router.post('/resend-activation', async (req, res) => {
    const app = ctx(req);
    const { u_email } = validate(emailOnlySchema, req.body);
    const hit = await app.limiter.hit(`mail:verify:${u_email.toLowerCase()}`, app.config.rateLimit.windowSeconds);
    if (hit.points <= app.config.rateLimit.mailPerEmail) {
      const user = await findUserByEmail(app.db, u_email);
      if (user && !user.u_is_verified && user.u_is_enabled) {
        const token = await createToken(app.db, 'verify', user.u_id);
        await sendVerification(app, user, token);
      }
    }
    res.json({ code: 'ok' });
  });

  return router;
}

/** GET /users/verify/{token}: ok, already_verified, or invalid_token. */
export async function verifyEmail(req: Request, res: Response): Promise<void> {
  const app = ctx(req);
  const raw = String(req.params.token ?? '');
  const token = await consumeToken(app.db, 'verify', raw);
  if (token?.t_userid) {
    const user = await app.db('users').where('u_id', token.t_userid).first('u_is_verified');
    if (user?.u_is_verified) throw new ApiError(409, 'already_verified', 'This e-mail address is already verified');
    // A verified address is a member of every enabled account of its domain (platform-and-flows.md section 3).
    await app.db.transaction(async (trx) => {
      await trx('users').where('u_id', token.t_userid).update({ u_is_verified: true, u_updated_at: trx.fn.now() });
      await joinDomainAccounts(trx, token.t_userid!);
    });
    // The success page shows a support contact and the privacy policy (spec 2).
    res.json({ code: 'ok', support: { email: app.config.supportEmail, privacyUrl: app.config.privacyUrl } });
    return;
  }
  const seen = await findToken(app.db, 'verify', raw);
  if (seen?.t_userid) {
    const user = await app.db('users').where('u_id', seen.t_userid).first('u_is_verified');
    if (user?.u_is_verified) throw new ApiError(409, 'already_verified', 'This e-mail address is already verified');
  }
  throw new ApiError(400, 'invalid_token', 'This link is invalid or has expired');
}
