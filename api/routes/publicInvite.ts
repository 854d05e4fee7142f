import { Router, type RequestHandler } from 'express';
import { ctx } from '../context.js';
import { ApiError, validate } from '../errors.js';
import { sessionAnswer, signIn } from './auth.js';
import { acceptAsExistingUser, acceptAsNewUser, findOpenInvite, inviteInvalid, invitedUser } from '../services/invites.js';
import { inviteAcceptSchema } from '../../resources/invites.js';

/** Like the sign-in route: a per-address budget of attempts, shared by every API process (rate_limits table). */
const limited: RequestHandler = async (req, res, next) => {
  const app = ctx(req);
  const { windowSeconds, loginPerIp } = app.config.rateLimit;
  const hit = await app.limiter.hit(`invite:ip:${req.ip}`, windowSeconds);
  if (hit.points > loginPerIp) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
    throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
  }
  next();
};

/**
 * The public side of an invite (account-console.md: invites): what the link is for, and accepting it. A used,
 * revoked, expired or unknown link answers 400 invite_invalid.
 */
export function publicInviteRouter(): Router {
  const router = Router();

  router.post('/accept', limited, async (req, res) => {
    const app = ctx(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const invite = await findOpenInvite(app.db, body.token);
    if (!invite) throw inviteInvalid();
    const existing = await invitedUser(app.db, invite.iv_email);
    if (existing) {
      // The address has a user: only that user, signed in, may accept for it.
      if (!req.user) throw new ApiError(401, 'not_logged_in', `Sign in as ${invite.iv_email} to accept this invite`);
      if (req.user.u_id !== existing.u_id) throw new ApiError(401, 'invite_other_user', `This invite is for ${invite.iv_email}; sign in with that address to accept it`);
      await acceptAsExistingUser(app, invite, existing.u_id);
      res.json({ ...(await sessionAnswer(req, res, existing.u_id)), account_id: invite.a_id });
      return;
    }
    const input = validate(inviteAcceptSchema(app.config.passwordMinLength, true), body);
    const userId = await acceptAsNewUser(app, invite, { u_first_name: input.u_first_name, u_last_name: input.u_last_name, u_password: input.u_password ?? '' });
    res.json({ ...(await signIn(req, res, userId)), account_id: invite.a_id });
  });

  router.get('/:token', limited, async (req, res) => {
    const app = ctx(req);
    const invite = await findOpenInvite(app.db, String(req.params.token));
    if (!invite) throw inviteInvalid();
    res.json({
      account: { a_id: invite.a_id, a_name: invite.a_name },
      iv_email: invite.iv_email,
      iv_first_name: invite.iv_first_name,
      iv_last_name: invite.iv_last_name,
      iv_role: invite.iv_role,
      user_exists: Boolean(await invitedUser(app.db, invite.iv_email)),
      // The page also needs the password rule (spec 5), like the reset page gets it with its guest token.
      settings: { passwordMinLength: app.config.passwordMinLength },
    });
  });

  return router;
}
