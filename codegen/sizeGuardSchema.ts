// The size guard of a schema: the same structure with only `maxLength`, `maxItems` and
// `maxProperties` kept. The server runs it before the full validator, so a value over a size limit
// is refused after linear work, before `uniqueItems` (quadratic in Ajv for non-scalar items),
// patterns and formats ever see it. Ajv with `allErrors` keeps checking after a failed `maxItems`,
// so ordering keywords inside one schema is not enough.
//
// The guard accepts everything the full schema accepts (it only drops constraints), so running it
// first never refuses a valid value. `oneOf` becomes `anyOf`: two branches may both fit the size
// limits even when only one fits the full schema.
import { arrayOrEmpty, isJsonObject, objectOrEmpty, type Json, type JsonObject } from '../conformance/specModel/index.js';

const limits = ['maxLength', 'maxItems', 'maxProperties'] as const;
const schemaMaps = ['properties', 'patternProperties', '$defs'] as const;
const schemaLists = ['allOf', 'anyOf', 'prefixItems'] as const;
// `unevaluatedProperties` is left out: which properties count as evaluated depends on keywords the
// guard drops, so keeping it could refuse a valid value.
const schemaValued = ['items', 'additionalProperties'] as const;

export function sizeGuardSchema(schema: Json | undefined): Json {
  if (!isJsonObject(schema)) return true;
  const guard: JsonObject = {};
  if (typeof schema.$ref === 'string') guard.$ref = schema.$ref;
  if (typeof schema.$id === 'string') guard.$id = schema.$id;
  for (const key of limits) if (schema[key] !== undefined) guard[key] = schema[key];
  for (const key of schemaMaps) {
    if (schema[key]) guard[key] = Object.fromEntries(Object.entries(objectOrEmpty(schema[key])).map(([name, sub]) => [name, sizeGuardSchema(sub)]));
  }
  for (const key of schemaLists) if (Array.isArray(schema[key])) guard[key] = schema[key].map(sizeGuardSchema);
  if (Array.isArray(schema.oneOf)) guard.allOf = [...arrayOrEmpty(guard.allOf), { anyOf: schema.oneOf.map(sizeGuardSchema) }];
  // `false` here closes an object; that is not a size limit, so only schema values are kept.
  for (const key of schemaValued) if (isJsonObject(schema[key]) || Array.isArray(schema[key])) guard[key] = sizeGuardSchema(schema[key]);
  return guard;
}

/** The guard of every named schema, so guarded `$ref`s resolve to guards. */
export function sizeGuardComponents(schemas: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, sizeGuardSchema(schema)]));
}
