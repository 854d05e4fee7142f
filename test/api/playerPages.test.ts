import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, startApp, uid, type Signed, type TestApp } from '../helpers/app.js';
import { localOrigin, playerCsp, PLAYER_SW } from '../../api/routes/playerPages.js';

/**
 * The totem player's pages (api/routes/playerPages.ts): /play/{code} with its CSP (the account's local media server
 * allowed for its own codes only), a 404 page for an unknown code, the editor's preview page, the service worker; no
 * session or CSRF cookie for a totem.
 */

function directives(csp: string): Record<string, string> {
  return Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...rest] = d.split(/\s+/);
        return [name, rest.join(' ')];
      }),
  );
}

describe('playerCsp', () => {
  it('its own script and style only, frames of any http(s) page, framed by this origin, the local server for media', () => {
    const d = directives(playerCsp({ localOrigin: 'http://10.0.0.5:8080', upgradeInsecure: false }));
    expect(d['script-src']).toBe("'self'");
    expect(d['script-src-attr']).toBe("'none'");
    expect(d['style-src']).toBe("'self'");
    expect(d['img-src']).toBe("'self' http://10.0.0.5:8080");
    expect(d['media-src']).toBe("'self' http://10.0.0.5:8080");
    expect(d['connect-src']).toBe("'self' http://10.0.0.5:8080");
    expect(d['frame-src']).toBe('https: http:');
    expect(d['frame-ancestors']).toBe("'self'");
    expect(d['object-src']).toBe("'none'");
    expect(d['form-action']).toBe("'none'");
    expect(d['worker-src']).toBe("'self'");
    expect('upgrade-insecure-requests' in d).toBe(false);
    expect('upgrade-insecure-requests' in directives(playerCsp({ upgradeInsecure: true }))).toBe(true);
    expect(directives(playerCsp({ upgradeInsecure: false }))['img-src']).toBe("'self'");
  });

  it('a local server URL counts only as an http(s) origin', () => {
    expect(localOrigin('http://10.0.0.5:8080/media/')).toBe('http://10.0.0.5:8080');
    expect(localOrigin('https://media.venue.example')).toBe('https://media.venue.example');
    expect(localOrigin('javascript:alert(1)')).toBeNull();
    expect(localOrigin("http://x.example'; script-src *")).toBeNull();
    expect(localOrigin('')).toBeNull();
    expect(localOrigin(null)).toBeNull();
  });
});

describeEachDb('player pages (/play/{code}, /play/_preview/…, /play/sw.js)', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let codeA: string;
  let codeB: string;

  async function codeOf(accountId: string): Promise<string> {
    const group = await root.post(`/api/1/accounts/${accountId}/carousel-groups`, { cg_title: `Hall ${uid()}` });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const code = await root.post(`/api/1/accounts/${accountId}/codes`, { cc_groupid: group.body.cg_id, cc_title: 'Entrance totem' });
    expect(code.status, JSON.stringify(code.body)).toBe(201);
    return code.body.cc_code as string;
  }

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account(`Player A ${uid()}`)).a_id;
    b = (await t.account(`Player B ${uid()}`)).a_id;
    codeA = await codeOf(a);
    codeB = await codeOf(b);
  });
  afterAll(async () => t?.close());

  const get = (path: string) => request(t.app).get(path);

  it('GET /play/{code}: the page, no-cache, a strict CSP, no cookie (the code is the credential); any letter case', async () => {
    for (const path of [`/play/${codeA}`, `/play/${codeA.toLowerCase()}`, `/play/${codeA}/`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['set-cookie']).toBeUndefined();
      const d = directives(res.headers['content-security-policy']);
      expect(d['script-src']).toBe("'self'");
      expect(d['style-src']).toBe("'self'");
      expect(d['img-src']).toBe("'self'");
      expect(d['frame-src']).toBe('https: http:');
      expect(d['frame-ancestors']).toBe("'self'");
      expect(res.text).toContain('Leadstage');
    }
  });

  it("the account's local media server is allowed on its own codes' pages only, and follows a change of settings", async () => {
    const put = await root.put(`/api/1/accounts/${a}/settings`, { ls_local_server_url: 'http://192.168.10.20:8088/leadstage' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const d = directives((await get(`/play/${codeA}`)).headers['content-security-policy']);
    expect(d['img-src']).toBe("'self' http://192.168.10.20:8088");
    expect(d['media-src']).toBe("'self' http://192.168.10.20:8088");
    expect(d['connect-src']).toBe("'self' http://192.168.10.20:8088");
    expect(directives((await get(`/play/${codeB}`)).headers['content-security-policy'])['img-src']).toBe("'self'");
    // the manifest tells the page the same server
    expect(JSON.parse((await get(`/api/1/play/${codeA}`)).text).local_server_url).toBe('http://192.168.10.20:8088/leadstage');
    await root.put(`/api/1/accounts/${a}/settings`, { ls_local_server_url: null });
    expect(directives((await get(`/play/${codeA}`)).headers['content-security-policy'])['img-src']).toBe("'self'");
  });

  it('an unknown, malformed or missing code: 404 with the same page (it shows the message) and the same CSP', async () => {
    for (const path of ['/play/AAAAAAAA', '/play/x', `/play/${encodeURIComponent('<script>')}`, '/play', '/play/', '/play/_preview']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(directives(res.headers['content-security-policy'])['script-src'], path).toBe("'self'");
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('the preview page: any well-formed ids (the data comes from the console API with the session); malformed ids 404', async () => {
    const ok = await get(`/play/_preview/${a}/${MISSING}?slide=${MISSING}&variant=hd`);
    expect(ok.status).toBe(200);
    expect(directives(ok.headers['content-security-policy'])['frame-ancestors']).toBe("'self'");
    expect(ok.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect((await get(`/play/_preview/${a}/not-a-uuid`)).status).toBe(404);
    expect((await get(`/play/_preview/x/${MISSING}`)).status).toBe(404);
    // and the preview's data needs a member's session
    expect((await request(t.app).get(`/api/1/accounts/${a}/carousels/${MISSING}/manifest`)).status).toBe(401);
  });

  it('the service worker: scope /play/, revalidated on every load', async () => {
    const res = await get('/play/sw.js');
    expect(res.headers['service-worker-allowed']).toBe('/play/');
    expect(res.headers['cache-control']).toBe('no-cache');
    if (fs.existsSync(PLAYER_SW)) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.text).toContain("addEventListener('fetch'");
    } else {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});
