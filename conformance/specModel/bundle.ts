// Makes a spec self-contained: every cross-file `$ref` (e.g. asyncapi.yaml pointing at
// `./openapi.yaml#/components/schemas/DailyPlanResponse`) is copied into the document's own
// `components.schemas` under the same name, and every ref is rewritten to point there. Schemas keep
// their names, so served documents and generated types read the same as the source.
import path from 'node:path';
import { componentName, valueAtPointer } from './jsonPointer.js';
import { readYaml } from './yamlDocument.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export function bundle(entryFile: string): JsonObject {
  const entry = structuredClone(readYaml(entryFile));
  const components = (entry.components ??= {}) as JsonObject;
  const schemas = (components.schemas ??= {}) as JsonObject;
  const documents = new Map<string, JsonObject>([[path.resolve(entryFile), entry]]);
  const imported = new Map<string, string>(); // "<file>#<pointer>" -> local schema name

  const load = (file: string): JsonObject => {
    let doc = documents.get(file);
    if (!doc) {
      doc = readYaml(file);
      documents.set(file, doc);
    }
    return doc;
  };

  // Rewrites refs inside `node`, which lives in `file`; returns nothing, mutates in place.
  const rewrite = (node: Json, file: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item) => rewrite(item, file));
      return;
    }
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const [filePart, pointer = ''] = ref.split('#');
      const target = filePart ? path.resolve(path.dirname(file), filePart) : file;
      if (target !== path.resolve(entryFile)) node.$ref = `#/components/schemas/${importSchema(target, `#${pointer}`)}`;
    }
    for (const [key, value] of Object.entries(node)) if (key !== '$ref') rewrite(value, file);
  };

  const importSchema = (file: string, pointer: string): string => {
    const id = `${file}${pointer}`;
    const known = imported.get(id);
    if (known) return known;
    const name = componentName(pointer, 'schemas');
    if (!name) throw new Error(`cross-file $ref must point at a schema under #/components/schemas: ${id}`);
    if (name in schemas) throw new Error(`schema ${name} is defined in ${path.basename(entryFile)} and imported from ${path.basename(file)}`);
    imported.set(id, name);
    const target = valueAtPointer(load(file), pointer) as Json | undefined;
    if (target === undefined) throw new Error(`cannot resolve ${id}`);
    const copy = structuredClone(target);
    schemas[name] = copy;
    rewrite(copy, file);
    return name;
  };

  rewrite(entry, path.resolve(entryFile));
  // Imported schemas go after the document's own, sorted, so the output does not depend on walk order.
  const own = Object.keys(schemas).filter((name) => ![...imported.values()].includes(name));
  const importedNames = [...imported.values()].sort();
  components.schemas = Object.fromEntries([...own, ...importedNames].map((name) => [name, schemas[name]!]));
  return entry;
}

/** The `$ref`s of a document that point into another file (none, once it is bundled). */
export function crossFileRefs(node: Json): string[] {
  if (node === null || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap(crossFileRefs);
  const ref = node.$ref;
  const own = typeof ref === 'string' && !ref.startsWith('#') ? [ref] : [];
  return [...own, ...Object.values(node).flatMap(crossFileRefs)];
}
