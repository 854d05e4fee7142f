import type { Request, Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../api/config.js';
import { ctx, type AppContext } from '../../api/context.js';
import { createCsrf, CSRF_COOKIE, CSRF_HEADER } from '../../api/middleware/csrf.js';

// What a request makes must die with it. An object whose hidden class is its own (an accessor with a function made for
// it, or an object used as a prototype) is held by that class, which the young generation's collections do not free:
// every signed-in request's objects were then copied and promoted (2–3 MB a collection), a third of a GET's CPU
// (bench/README.md, "Server CPU per request"). These tests pin the two shapes that did it.

afterEach(() => vi.restoreAllMocks());

describe("a request's context", () => {
  const lines: string[] = [];
  const mailer = { send: async () => undefined, withLog: (log: (m: string) => void) => ({ send: async () => undefined, log }) };
  const app = { db: Object.assign(() => undefined, { transaction: () => undefined }), mailer, log: () => undefined } as unknown as AppContext;
  const request = () =>
    ({ app: { locals: { ctx: app, logFor: (req: object) => (m: string) => lines.push(`${(req as { id: string }).id}: ${m}`) } }, id: crypto.randomUUID() }) as unknown as Request;

  it('has no accessor of its own: the mailer getter is on one prototype shared by every request of the app', () => {
    const a = ctx(request());
    const b = ctx(request());
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(Object.getPrototypeOf(Object.getPrototypeOf(a))).toBe(app);
    for (const context of [a, b]) {
      for (const name of Object.getOwnPropertyNames(context)) expect(Object.getOwnPropertyDescriptor(context, name)!.get, name).toBeUndefined();
      expect(Object.getOwnPropertyNames(context).sort()).toEqual(['db', 'log']);
    }
  });

  it("still gives the request's mailer, writing on the request's log, and the same context on every call", () => {
    const req = request();
    const context = ctx(req);
    expect(ctx(req)).toBe(context);
    (context.mailer as unknown as { log: (m: string) => void }).log('sent');
    expect(lines.at(-1)).toBe(`${(req as unknown as { id: string }).id}: sent`);
    expect(context.db).not.toBe(app.db); // the request's handle (its transactions name the request's user)
  });
});

describe('CSRF cookie check', () => {
  const config = { sessionSecret: 'unit-'.padEnd(40, 'x'), secureCookies: false } as Config;
  const response = () => {
    const set: string[] = [];
    const res = { cookie: (name: string, value: string) => set.push(`${name}=${value}`) } as unknown as Response;
    return { res, set };
  };
  const request = (cookies: Record<string, string>, extra: Partial<Request> = {}) => ({ cookies, headers: {}, method: 'GET', ...extra }) as unknown as Request;

  it('checks a cookie that no longer matches without making the request a prototype, and issues a new one', () => {
    const csrf = createCsrf(config);
    const { res: first, set: issued } = response();
    csrf.issue(request({}), first);
    const visitorToken = decodeURIComponent(issued[0].split('=').slice(1).join('='));
    const create = vi.spyOn(Object, 'create');
    // Signed in since: the visitor's token is bound to "anonymous", not to this session.
    const req = request({ [CSRF_COOKIE]: visitorToken }, { session: { id: 'a'.repeat(64), userId: 'u', data: {}, expiresAt: new Date() } });
    const { res, set } = response();
    const next = vi.fn();
    csrf.ensureCookie(req, res, next);
    expect(next).toHaveBeenCalledOnce();
    expect(set).toHaveLength(1); // a new token for the session
    expect(create.mock.calls.filter(([proto]) => proto === req)).toEqual([]);
  });

  it('a valid cookie is taken (and remembered); the header check is not fooled by the cookie check before it', () => {
    const csrf = createCsrf(config);
    const { res: first, set: issued } = response();
    csrf.issue(request({}), first);
    const token = decodeURIComponent(issued[0].split('=').slice(1).join('='));
    const { res, set } = response();
    csrf.ensureCookie(request({ [CSRF_COOKIE]: token }), res, () => undefined);
    expect(set).toEqual([]);
    // A POST with the cookie but no header, right after the cookie was checked in the header's place: refused.
    const post = request({ [CSRF_COOKIE]: token }, { method: 'POST' });
    csrf.ensureCookie(post, response().res, () => undefined);
    const refused = vi.fn();
    csrf.protect(post, response().res, refused);
    expect(refused.mock.calls[0][0]).toMatchObject({ status: 403, code: 'csrf_invalid' });
    const accepted = vi.fn();
    csrf.protect(request({ [CSRF_COOKIE]: token }, { method: 'POST', headers: { [CSRF_HEADER]: token } }), response().res, accepted);
    expect(accepted).toHaveBeenCalledWith(undefined);
  });
});
