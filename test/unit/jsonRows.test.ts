import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { JSON_ROWS, timestamptzAsJson } from '../../api/db/jsonRows.js';

const pgParse = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
const asJson = (v: unknown) => JSON.stringify({ v });

/**
 * A list page's timestamps arrive as the strings its JSON holds (api/db/jsonRows.ts): the answer must be byte for byte
 * what pg's Date would have given, postgres-date's rounding of the fraction included.
 */
describe('timestamps as their JSON strings', () => {
  it('writes what JSON.stringify writes for pg’s Date, for every fraction length and tricky fraction', () => {
    const fractions = ['', '.5', '.57', '.29', '.1', '.999', '.9999', '.999999', '.000001', '.001', '.0005', '.123456', '.58', '.07', '.014', '.3'];
    const days = [
      '2026-11-26 21:28:51',
      '1970-01-01 00:00:00',
      '1969-12-31 23:59:59',
      '0001-01-01 00:00:00',
      '0099-06-30 12:00:00',
      '0100-01-01 00:00:00',
      '9999-12-31 23:59:59',
      '2024-02-29 07:08:09',
    ];
    let fast = 0;
    for (const day of days)
      for (const fraction of fractions) {
        const text = `${day}${fraction}+00`;
        const out = timestamptzAsJson(text);
        if (typeof out === 'string') fast++;
        expect(asJson(out), text).toBe(asJson(pgParse(text)));
      }
    // Every one of these took the fast path (no Date made).
    expect(fast).toBe(days.length * fractions.length);
    // Random instants with random fractions.
    for (let i = 0; i < 5000; i++) {
      const d = new Date(Math.floor(Math.random() * 4102444800000));
      const digits = Math.floor(Math.random() * 7);
      const fraction = digits ? `.${String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0')}` : '';
      const text = `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}${fraction}+00`;
      expect(asJson(timestamptzAsJson(text)), text).toBe(asJson(pgParse(text)));
    }
  });

  it('leaves everything else to pg’s parser: other offsets, BC, years past 9999, infinity', () => {
    for (const text of [
      '2026-11-26 22:28:51.5+01',
      '2026-11-26 16:28:51-05',
      '2026-11-26 21:28:51+05:30',
      '0044-03-15 12:00:00+00 BC',
      '10000-01-01 00:00:00+00',
      'infinity',
      '-infinity',
    ]) {
      expect(typeof timestamptzAsJson(text), text).not.toBe('string');
      expect(asJson(timestamptzAsJson(text)), text).toBe(asJson(pgParse(text)));
    }
  });

  it('gives pg and PGlite the parser for timestamptz only', () => {
    const { types, parsers } = JSON_ROWS as { types: { getTypeParser(oid: number, format?: string): unknown }; parsers: Record<number, unknown> };
    expect(types.getTypeParser(1184, 'text')).toBe(timestamptzAsJson);
    expect(types.getTypeParser(1114, 'text')).toBe(pg.types.getTypeParser(1114, 'text'));
    expect(types.getTypeParser(20, 'text')).toBe(pg.types.getTypeParser(20, 'text'));
    expect(Object.keys(parsers)).toEqual(['1184']);
  });
});
