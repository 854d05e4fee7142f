import pg from 'pg';

const TIMESTAMPTZ = 1184;
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

/**
 * A `timestamptz` as PostgreSQL writes it in UTC (`2026-11-26 21:28:51.123456+00`) turned straight into the string
 * `JSON.stringify` writes for the Date that pg would have made of it (`2026-11-26T21:28:51.123Z`), without making the
 * Date: pg's parser (postgres-date) and `Date.prototype.toISOString` were a visible part of a list page's CPU (three
 * timestamps per lead, 25 leads). The milliseconds are computed as postgres-date computes them (`1000 *
 * parseFloat('.fff…')`, truncated by `Date.UTC`), so the answer is byte for byte the same (test/unit/jsonRows.test.ts);
 * anything else (another offset, BC, a year past 9999, infinity) goes through pg's parser.
 */
export function timestamptzAsJson(text: string): unknown {
  const n = text.length;
  if (
    n >= 22 &&
    n <= 29 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(10) === 32 &&
    text.charCodeAt(n - 3) === 43 &&
    text.charCodeAt(n - 2) === 48 &&
    text.charCodeAt(n - 1) === 48
  ) {
    let ms = '000';
    if (n > 22) {
      if (text.charCodeAt(19) !== 46) return parseTimestamptz(text);
      const m = Math.trunc(1000 * parseFloat(text.slice(19, n - 3)));
      ms = m < 10 ? `00${m}` : m < 100 ? `0${m}` : String(m);
    }
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
  }
  return parseTimestamptz(text);
}

const types = {
  getTypeParser: (oid: number, format?: string) => (oid === TIMESTAMPTZ && format !== 'binary' ? timestamptzAsJson : pg.types.getTypeParser(oid, format as 'text')),
};

/**
 * Query options for rows that go to a JSON answer and nowhere else (a list page's): their timestamps arrive as the
 * strings the answer will hold (`types` for pg, `parsers` for PGlite). Code that works with a row's dates must not
 * read it with these.
 */
export const JSON_ROWS: Readonly<Record<string, unknown>> = { types, parsers: { [TIMESTAMPTZ]: timestamptzAsJson } };
