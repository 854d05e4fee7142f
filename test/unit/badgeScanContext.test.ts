import tls from 'node:tls';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { badgeScan } from '../../api/services/badgeScan.js';
import { BADGES, startFakeBadgeProvider, type FakeBadgeProvider } from '../../scripts/fake-badge-provider.js';

/**
 * A scan trusts INTEGRATIONS_CA_FILE beside the system's roots. Building that TLS context parses every root (about
 * 38 ms of CPU): it is built once per CA and reused by every scan, not once a scan.
 */
let provider: FakeBadgeProvider;
beforeAll(async () => {
  provider = await startFakeBadgeProvider({ secret: 's', apiKey: 'k' });
});
afterAll(() => provider?.close());

it('scans with an extra CA build its TLS context once, and still verify the provider by it', async () => {
  const built = vi.spyOn(tls, 'createSecureContext');
  try {
    const code = Object.keys(BADGES)[0];
    const options = { allowPrivate: true, timeoutMs: 5000, ca: provider.cert };
    for (let i = 0; i < 3; i++) {
      const { answers } = await badgeScan({ in_api_url: provider.url, in_key: 'k', in_secret: 's' }, { event: null, code }, options);
      expect(answers.email).toBe(BADGES[code].email);
    }
    expect(built).toHaveBeenCalledTimes(1);
    // Without the CA the provider's self-signed certificate is refused: the cached context did not loosen anything.
    await expect(badgeScan({ in_api_url: provider.url, in_key: 'k', in_secret: 's' }, { event: null, code }, { allowPrivate: true, timeoutMs: 5000 })).rejects.toMatchObject({
      status: 502,
      code: 'badge_scan_failed',
    });
  } finally {
    built.mockRestore();
  }
});
