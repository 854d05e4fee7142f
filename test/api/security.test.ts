import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { PASSWORD, startApp, type TestApp } from '../helpers/app.js';

describeEachDb('security headers and cookies', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t?.close());

  it('sends a restrictive Content-Security-Policy and the usual hardening headers on the admin page', async () => {
    const res = await t.client().get('/login');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/frame-ancestors 'self'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends the REST set on API answers: nothing loads from or frames a JSON answer, and no document-only headers', async () => {
    for (const path of ['/api/1/auth/me', '/api/1/no-such-route', '/api/1/play/NOSUCHCODE']) {
      const res = await t.client().get(path);
      expect(res.headers['content-security-policy'], path).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], path).toBe('same-origin');
      expect(String(res.headers['cache-control']), path).toMatch(/no-store|no-cache/);
      for (const name of [
        'referrer-policy',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
        'x-powered-by',
      ])
        expect(res.headers[name], `${path} ${name}`).toBeUndefined();
    }
  });

  it('marks cookies Secure and sends HSTS when PUBLIC_URL is https (behind a TLS-terminating proxy)', async () => {
    const https = await startApp(kind, { publicUrl: 'https://admin.example.com', secureCookies: true, trustProxy: true });
    try {
      await https.user('secure@example.com', 'root');
      const c = https.client();
      const headers = { 'X-Forwarded-Proto': 'https' };
      await c.get('/api/1/auth/me', { headers });
      const res = await c.post('/api/1/auth/web', { u_email: 'secure@example.com', u_password: PASSWORD }, { headers });
      expect(res.status).toBe(200);
      const cookies = res.headers['set-cookie'] as unknown as string[];
      for (const name of ['ls.sid', 'ls.csrf-token', 'is_logged_in', 'user_role', 'account_role']) {
        const c = cookies.find((x) => x.startsWith(`${name}=`));
        expect(c, name).toBeTruthy();
        expect(c, name).toMatch(/;\s*Secure/i);
        expect(c, name).toMatch(/SameSite=Lax/i);
      }
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect((await c.get('/api/1/auth/me', { headers })).status).toBe(200);
    } finally {
      await https.close();
    }
  });

  it('lets the browser reach the public S3 address (uploads, redirected images and video) when storage is S3', async () => {
    const s3 = await startApp(kind, {
      storage: {
        ...t.config.storage,
        driver: 's3',
        s3: { ...t.config.storage.s3, endpoint: 'http://minio:9000', publicEndpoint: 'http://localhost:9000', forcePathStyle: true },
      },
    });
    try {
      const csp = String((await s3.client().get('/login')).headers['content-security-policy']);
      for (const directive of ['img-src', 'media-src', 'connect-src']) {
        expect(csp).toMatch(new RegExp(`${directive} [^;]*http://localhost:9000`));
        expect(csp).not.toMatch(new RegExp(`${directive} [^;]*minio`));
      }
    } finally {
      await s3.close();
    }
  });
});
