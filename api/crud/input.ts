import type { z } from 'zod';
import { ApiError, validate } from '../errors.js';
import { messageFor } from '../../resources/messages.js';
import { sanitizeRichTextFields } from './richtext.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/**
 * The code of a 400 for these field errors: a contract code of the declaration (account-console.md, e.g.
 * event_title_required) when a field's message key is error_<code>, else validation_failed.
 */
export function contractCode(decl: ResourceDeclaration, fields: Record<string, string> | undefined): string {
  const codes = Object.values(fields ?? {}).map((k) => k.replace(/^error_/, ''));
  return codes.find((c) => decl.codes?.includes(c)) ?? 'validation_failed';
}

/**
 * validate() with the declaration's contract codes, then its richtext fields sanitised (every body of a declared
 * resource passes here, so every resource that declares one stores only the allow-list).
 */
export function validateFor(decl: ResourceDeclaration, schema: z.ZodTypeAny, body: unknown): Row {
  let data: Row;
  try {
    data = validate(schema, body) as Row;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'validation_failed' && decl.codes) err.code = contractCode(decl, err.fields);
    throw err;
  }
  const errors = sanitizeRichTextFields(decl, data);
  if (errors) throw invalid(decl, errors);
  return data;
}

/** A 400 with field errors, coded by the contract when a field's key is error_<code> of one of the declaration's codes. */
export function invalid(decl: ResourceDeclaration, fields: Record<string, string>): ApiError {
  return new ApiError(400, contractCode(decl, fields), messageFor(Object.values(fields)[0] ?? 'error_invalid_value'), fields);
}

/** Past this many values a body is not walked further: the JSON parser's size limit keeps real bodies far below. */
const MAX_NUL_SCAN_NODES = 1_000_000;

/**
 * PostgreSQL text cannot hold a NUL character (the insert would fail with a 500): a body field containing one, in
 * its value or in any key or string nested within, is answered 400 validation_failed with that field, before any
 * schema or query sees it. The walk is iterative and bounded, so no nesting depth can overflow the stack.
 */
export function rejectNulBytes(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const fields: Record<string, string> = {};
  let budget = MAX_NUL_SCAN_NODES;
  for (const [key, value] of Object.entries(body as Row)) {
    const stack: unknown[] = [value];
    while (stack.length) {
      if (--budget < 0) throw new ApiError(413, 'payload_too_large', 'The request body has too many values');
      const node = stack.pop();
      if (typeof node === 'string') {
        if (node.includes('\u0000')) {
          fields[key] = 'error_invalid_value';
          break;
        }
      } else if (Array.isArray(node)) {
        for (const item of node) stack.push(item);
      } else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) stack.push(k, v);
      }
    }
  }
  if (Object.keys(fields).length) throw new ApiError(400, 'validation_failed', 'A field contains a character that is not allowed', fields);
}

/** A body checked for NUL characters, then validated by the schema with the declaration's contract codes. */
export function parseBody(decl: ResourceDeclaration, schema: z.ZodTypeAny, body: unknown): Row {
  rejectNulBytes(body);
  return validateFor(decl, schema, body);
}
