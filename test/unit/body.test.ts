import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, requestError } from '../../api/errors.js';
import { checkJsonTree, multipartError } from '../../api/middleware/body.js';
import { rejectNulBytes } from '../../api/crud/input.js';

/** A value nested `levels` deep in arrays, built without recursion. */
function deep(levels: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

const codeOf = (fn: () => void): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof ApiError ? `${e.status} ${e.code}` : `not an ApiError: ${String(e)}`;
  }
};

describe('checkJsonTree', () => {
  it('takes up to maxDepth levels and refuses one more with 400 body_too_deep, at any size of tree', () => {
    expect(codeOf(() => checkJsonTree(deep(32), 32))).toBeUndefined();
    expect(codeOf(() => checkJsonTree({ a: deep(31) }, 32))).toBeUndefined();
    expect(codeOf(() => checkJsonTree(deep(33), 32))).toBe('400 body_too_deep');
    expect(codeOf(() => checkJsonTree({ a: deep(32) }, 32))).toBe('400 body_too_deep');
    expect(codeOf(() => checkJsonTree(deep(1_000_000), 32))).toBe('400 body_too_deep');
  });

  it('refuses __proto__, constructor and prototype as keys at any depth, and takes them as values', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(codeOf(() => checkJsonTree(JSON.parse(`{"a":[{"${key}":1}]}`), 32))).toBe('400 forbidden_key');
    }
    expect(codeOf(() => checkJsonTree({ a: '__proto__', b: ['constructor'] }, 32))).toBeUndefined();
  });

  it('never throws anything but its own 400 for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const code = codeOf(() => checkJsonTree(v, 32));
        expect([undefined, '400 forbidden_key', '400 body_too_deep']).toContain(code);
      }),
    );
  });
});

describe('rejectNulBytes', () => {
  it('finds a NUL in a value or key nested half a million levels deep without overflowing, naming the field', () => {
    const e = (() => {
      try {
        rejectNulBytes({ ok: 'fine', bad: deep(500_000, 'a\u0000b'), key: [{ 'k\u0000': 1 }] });
      } catch (err) {
        return err as ApiError;
      }
    })();
    expect(e).toBeInstanceOf(ApiError);
    expect(e!.status).toBe(400);
    expect(e!.fields).toEqual({ bad: 'error_invalid_value', key: 'error_invalid_value' });
  });

  it('lets a body without NUL through', () => {
    expect(() => rejectNulBytes({ a: 'x', b: [1, { c: null }], d: deep(50_000, 'y') })).not.toThrow();
  });

  it('stops walking past a million values with 413 rather than running on', () => {
    expect(codeOf(() => rejectNulBytes({ a: new Array(1_100_000).fill(0) }))).toBe('413 payload_too_large');
  });
});

describe('requestError', () => {
  it('maps body-parser errors by type, multer errors by code, and http-errors 4xx by status', () => {
    const http = (status: number, props: Record<string, unknown>) => Object.assign(new Error('m'), { status, statusCode: status, expose: status < 500 }, props);
    const multer = (code: string) => Object.assign(new Error('m'), { name: 'MulterError', code });
    const cases: Array<[unknown, string]> = [
      [http(400, { type: 'entity.parse.failed' }), '400 invalid_json'],
      [http(413, { type: 'entity.too.large' }), '413 payload_too_large'],
      [http(415, { type: 'charset.unsupported' }), '415 unsupported_media_type'],
      [http(415, { type: 'encoding.unsupported' }), '415 unsupported_encoding'],
      [http(400, { type: 'request.size.invalid' }), '400 invalid_content_length'],
      [http(400, { errno: -3, code: 'Z_DATA_ERROR' }), '400 invalid_encoding'],
      [multer('LIMIT_FILE_SIZE'), '413 file_too_large'],
      [multer('LIMIT_PART_COUNT'), '413 payload_too_large'],
      [multer('LIMIT_UNEXPECTED_FILE'), '400 unexpected_file_field'],
      [http(404, { expose: false, code: 'ENOENT' }), '404 not_found'],
      [http(429, {}), '429 too_many_requests'],
    ];
    for (const [err, expected] of cases) {
      const e = requestError(err);
      expect(e && `${e.status} ${e.code}`, expected).toBe(expected);
    }
  });

  it('keeps a 4xx message hidden unless the error says it may be shown', () => {
    const hidden = Object.assign(new Error("ENOENT: no such file, stat '/srv/secret'"), { status: 404, statusCode: 404, expose: false });
    expect(requestError(hidden)?.message).toBe('Not Found');
  });

  it('leaves real faults alone (they become a 500 with a request id)', () => {
    for (const err of [
      new Error('boom'),
      Object.assign(new Error('x'), { status: 500, statusCode: 500, expose: false, type: 'stream.not.readable' }),
      Object.assign(new Error('x'), { status: 400 }), // a 4xx-looking property on an error that is not http-errors'
      Object.assign(new Error('x'), { code: '23505' }),
      Object.assign(new Error('x'), { name: 'MulterError', code: 'SOMETHING_NEW' }),
      null,
      'a string',
    ]) {
      expect(requestError(err)).toBeUndefined();
    }
  });
});

describe('multipartError', () => {
  it("makes busboy's parse errors a 400 and leaves other errors as they are", () => {
    for (const message of ['Unexpected end of form', 'Malformed part header', 'Multipart: Boundary not found', 'Unsupported content type: text/x']) {
      const e = multipartError(new Error(message));
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe('invalid_multipart');
    }
    const disk = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(multipartError(disk)).toBe(disk);
  });
});
