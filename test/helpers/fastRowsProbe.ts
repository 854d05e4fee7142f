// Run by test/unit/fastRows.test.ts as `node --allow-natives-syntax --import tsx test/helpers/fastRowsProbe.ts`:
// for every declared resource served by the generic pipeline, a row made by pg's own Result (as a list page's rows
// are) goes through the resource's serialize, and V8 says whether the answer is still a fast-mode object (a
// dictionary-mode one is written out by JSON.stringify half again as slowly). Prints one JSON line.
import { createRequire } from 'node:module';
import { RESOURCES } from '../../resources/index.js';
import { fieldsOf } from '../../resources/define.js';
import { hooksOf } from '../../api/resources.js';
import { resourceAdapter } from '../../api/crud/adapter.js';
import { resourceNamed } from '../../resources/index.js';

const require = createRequire(import.meta.url);
// pg's row maker (pg/lib/result.js): the fields of a RowDescription, then one object per DataRow.
const Result = require('pg/lib/result.js') as new () => {
  addFields(f: { name: string; dataTypeID: number; format: string }[]): void;
  parseRow(values: (string | null)[]): Record<string, unknown>;
};
const TEXT = 25;
const UUID = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';

const isFast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
const out: Record<string, boolean | string> = {};
for (const decl of RESOURCES) {
  const hooks = hooksOf(decl.name);
  if (hooks === 'own' || decl.singleton) continue;
  const columns = [...new Set([decl.primaryKey, ...(decl.accountKey ? [decl.accountKey] : []), ...fieldsOf(decl).map(([f]) => f)])];
  const result = new Result();
  result.addFields(columns.map((name) => ({ name, dataTypeID: TEXT, format: 'text' })));
  try {
    const adapter = resourceAdapter(decl, hooks ?? {}, resourceNamed);
    const rows = [0, 1].map(() => result.parseRow(columns.map((c) => (c === decl.primaryKey || c === decl.accountKey ? UUID : null))));
    out[decl.name] = rows.map((r) => adapter.serialize(r)).every(isFast);
  } catch (err) {
    out[decl.name] = `serialize threw: ${(err as Error).message}`;
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
