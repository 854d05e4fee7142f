/**
 * Stands in for zod's JSON Schema generator in the admin build (admin/vite.config.ts, `noZodJsonSchema`): zod's
 * classic schemas import it always (each schema keeps a `processJSONSchema` and a `toJSONSchema` method) though only
 * the API calls it (api/openapi/schemas.ts, for the OpenAPI document). The browser only parses with the shared
 * schemas of resources/. It was about 32 KB minified, 8 KiB gzipped, on every signed-in page. Both of zod's modules
 * (core/to-json-schema.js and core/json-schema-processors.js) resolve here; test/unit/libraryPins.test.ts holds this
 * file's exports to theirs for the pinned version. Calling any of it fails loudly.
 */
const absent = (): never => {
  throw new Error("Leadstage's admin build leaves out zod's JSON Schema generator (admin/src/layout/noZodJsonSchema.ts)");
};

// core/to-json-schema.js (the two factories are called when a schema is made, the methods they return only on use)
export const createToJSONSchemaMethod = () => absent;
export const createStandardJSONSchemaMethod = () => absent;
export const initializeContext = absent;
export const handleUnrepresentable = absent;
export const processSchema = absent;
export { processSchema as process };
export const extractDefs = absent;
export const finalize = absent;

// core/json-schema-processors.js (each schema's `processJSONSchema` and the getters such as `minLength` call these)
export const allProcessors = {};
export const toJSONSchema = absent;
export const aggregateChecks = absent;
export const stringProcessor = absent;
export const numberProcessor = absent;
export const booleanProcessor = absent;
export const bigintProcessor = absent;
export const symbolProcessor = absent;
export const nullProcessor = absent;
export const undefinedProcessor = absent;
export const voidProcessor = absent;
export const neverProcessor = absent;
export const anyProcessor = absent;
export const unknownProcessor = absent;
export const dateProcessor = absent;
export const enumProcessor = absent;
export const literalProcessor = absent;
export const nanProcessor = absent;
export const templateLiteralProcessor = absent;
export const fileProcessor = absent;
export const successProcessor = absent;
export const customProcessor = absent;
export const functionProcessor = absent;
export const transformProcessor = absent;
export const mapProcessor = absent;
export const setProcessor = absent;
export const arrayProcessor = absent;
export const objectProcessor = absent;
export const unionProcessor = absent;
export const intersectionProcessor = absent;
export const tupleProcessor = absent;
export const recordProcessor = absent;
export const nullableProcessor = absent;
export const nonoptionalProcessor = absent;
export const defaultProcessor = absent;
export const prefaultProcessor = absent;
export const catchProcessor = absent;
export const pipeProcessor = absent;
export const readonlyProcessor = absent;
export const promiseProcessor = absent;
export const optionalProcessor = absent;
export const lazyProcessor = absent;
