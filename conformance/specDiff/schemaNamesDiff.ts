// Component schema names are part of a client's API even though they never travel on the wire:
// SDK generators name their types after them (`TripPlanPageResponse`, `CreateAiPromptTemplateRequest`),
// so client code using a removed or renamed schema no longer compiles. A removed name whose schema
// reappears unchanged under a new name is reported as that rename.
import { jsonAt, objectOrEmpty, type Json, type JsonObject } from '../specModel/index.js';
import type { Report } from './change.js';

// Documentation does not make two schemas different.
function shape(schema: Json | undefined): string {
  return JSON.stringify(schema, (key, value: unknown) => (key === 'description' || key === 'examples' || key === 'example' ? undefined : value));
}

export function diffSchemaNames(oldDoc: JsonObject, newDoc: JsonObject, report: Report): void {
  const oldSchemas = objectOrEmpty(jsonAt(oldDoc, 'components', 'schemas'));
  const newSchemas = objectOrEmpty(jsonAt(newDoc, 'components', 'schemas'));
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
