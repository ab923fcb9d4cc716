// Component schema names are part of a client's API even though they never travel on the wire:
// SDK generators name their types after them (`TripPlanPageResponse`, `CreateAiPromptTemplateRequest`),
// so client code using a removed or renamed schema no longer compiles. A removed name whose schema
// reappears unchanged under a new name is reported as that rename.
import type { Report } from './change.js';

type Json = any;

// Documentation does not make two schemas different.
function shape(schema: Json): string {
  return JSON.stringify(schema, (key, value) => (key === 'description' || key === 'examples' || key === 'example' ? undefined : value));
}

export function diffSchemaNames(oldDoc: Json, newDoc: Json, report: Report): void {
  const oldSchemas: Record<string, Json> = oldDoc?.components?.schemas ?? {};
  const newSchemas: Record<string, Json> = newDoc?.components?.schemas ?? {};
  const added = Object.keys(newSchemas).filter((name) => !(name in oldSchemas));
  for (const name of Object.keys(oldSchemas)) {
    if (name in newSchemas) continue;
    const renamedTo = added.find((candidate) => shape(newSchemas[candidate]) === shape(oldSchemas[name]));
    if (renamedTo) {
      added.splice(added.indexOf(renamedTo), 1);
      report(
        'breaking',
        'schema-renamed',
        `components.schemas.${name}`,
        `renamed to ${renamedTo}; generated SDK types are named after schemas, so client code using ${name} no longer compiles`,
      );
    } else {
      report(
        'breaking',
        'schema-removed',
        `components.schemas.${name}`,
        `removed; generated SDK types are named after schemas, so client code using ${name} no longer compiles`,
      );
    }
  }
  for (const name of added) report('non-breaking', 'schema-added', `components.schemas.${name}`, 'new named schema (a new type in generated SDKs)');
}
