import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, createRecord, startConsoleApp } from '../helpers/console.js';
import { formStyles, CUSTOM_CSS_MAX } from '../../resources/formStyles.js';
import { publicFormCsp } from '../../api/routes/publicPages.js';

type Row = Record<string, unknown>;

describeEachDb('form styles: the custom CSS as a stylesheet, the preview page', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Styles'));
  });
  afterAll(() => t?.close());

  const cssUrl = (accountId: string, id: unknown) => `${accountPath(accountId, formStyles)}/${id}/style.css`;
  const style = (css: string | null, accountId = a): Promise<Row> => createRecord(root, accountId, formStyles, { st_custom_css: css });

  it('serves the stored CSS as a stylesheet, byte for byte, and nothing else', async () => {
    const css = ':root {\n  --ls-form-accent: #aa0055;\n}\n.ls-public-title { color: rgb(170, 0, 85); } /* é — ✓ 😀 */\r\n';
    const s = await style(css);
    const res = await root.get(cssUrl(a, s.id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toBe(css);
  });

  it('a style without custom CSS is an empty stylesheet; the largest one allowed comes back whole', async () => {
    const none = await style(null);
    const empty = await root.get(cssUrl(a, none.id));
    expect(empty.status).toBe(200);
    expect(empty.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(empty.text).toBe('');

    const big = `/* ${'x'.repeat(CUSTOM_CSS_MAX - 6)} */`;
    expect(big.length).toBe(CUSTOM_CSS_MAX);
    const s = await style(big);
    const res = await root.get(cssUrl(a, s.id));
    expect(res.status).toBe(200);
    expect(res.text).toBe(big);
  });

  it('markup in the CSS comes back as CSS text only: not HTML, not escaped, not wrapped', async () => {
    const css = 'body { color: red; }\n</style><script>alert(document.cookie)</script><style>\n<!-- --> & "quotes"';
    const s = await style(css);
    const res = await root.get(cssUrl(a, s.id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).toBe(css); // exactly what was stored: no &lt;, no page around it
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it("another account's style, an unknown id and a malformed one answer 404 with the error body", async () => {
    const other = await style('body { color: blue; }', b);
    for (const url of [cssUrl(a, other.id), cssUrl(a, MISSING), cssUrl(a, 'not-a-uuid')]) {
      const res = await root.get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.code).toBe('not_found');
      expect(res.text).not.toContain('color: blue');
    }
    expect((await root.get(cssUrl(b, other.id))).text).toBe('body { color: blue; }');
  });

  it('needs a session and the read bit of account_form_styles', async () => {
    const s = await style('body { color: green; }');
    const anonymous = await t.client().get(cssUrl(a, s.id));
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('green');

    const member = await t.signedIn('member');
    await t.member(a, member.userId, 'member'); // members have no form-styles bits
    const denied = await member.get(cssUrl(a, s.id));
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    expect(denied.text).not.toContain('green');

    const admin = await t.signedIn('superadmin');
    await t.member(a, admin.userId, 'superadmin');
    expect((await admin.get(cssUrl(a, s.id))).status).toBe(200);
    await withGrant(t, 'superadmin', 'account_form_styles', 14, async () => {
      expect((await admin.get(cssUrl(a, s.id))).status).toBe(403); // every bit but read
    });
  });

  it('the preview page is served with a CSP that keeps custom CSS on this origin and allows framing by it only', async () => {
    const s = await style('body { color: red; }');
    const res = await root.get(`/preview/form-styles/${a}/${s.id}?form=${MISSING}&view=thanks`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `));
    expect(directive('style-src')).toBe("style-src 'self'");
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(directive('font-src')).toBe("font-src 'self' data:");
    expect(directive('img-src')).toBe("img-src 'self' data:");
    expect(directive('connect-src')).toBe("connect-src 'self'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    // the custom CSS never travels inside the page
    expect(res.text).not.toContain('color: red');

    // anything else under /preview is the admin's page with the admin's policy
    const other = await root.get(`/preview/form-styles/${a}/not-a-uuid`);
    expect(other.status).toBe(200);
    expect(String(other.headers['content-security-policy'])).toContain("style-src 'self' 'unsafe-inline'");
  });

  it("the page's CSP lets images, fonts and media come from the storage's S3 address, and upgrades behind https", () => {
    const csp = publicFormCsp(['http://localhost:9000'], true).split('; ');
    expect(csp).toEqual(
      expect.arrayContaining([
        "img-src 'self' data: http://localhost:9000",
        "font-src 'self' data: http://localhost:9000",
        "media-src 'self' http://localhost:9000",
        "style-src 'self'",
        'upgrade-insecure-requests',
      ]),
    );
    expect(publicFormCsp([], false)).not.toContain('upgrade-insecure-requests');
  });
});
