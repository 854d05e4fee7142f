import crypto from 'node:crypto';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { selfSignedCert } from '../../scripts/lib/selfSignedCert.js';

describe('selfSignedCert', () => {
  it('makes a certificate OpenSSL accepts, for its names, whatever its random serial', () => {
    // The serial is 16 random bytes; a non-minimal INTEGER (1 in 256 draws before the fix) is refused by OpenSSL as
    // "illegal padding". 1,500 draws would meet that case with a probability above 99.7 %.
    const serials = new Set<string>();
    for (let i = 0; i < 1500; i++) {
      const { key, cert } = selfSignedCert();
      const parsed = new crypto.X509Certificate(cert);
      expect(() => tls.createSecureContext({ key, cert })).not.toThrow();
      expect(parsed.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
      serials.add(parsed.serialNumber);
      if (i === 0) {
        expect(parsed.checkHost('localhost')).toBe('localhost');
        expect(parsed.checkIP('127.0.0.1')).toBe('127.0.0.1');
        expect(parsed.verify(parsed.publicKey)).toBe(true);
      }
    }
    expect(serials.size).toBe(1500);
  });
});
