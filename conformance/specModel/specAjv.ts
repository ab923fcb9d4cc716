// What every Ajv that reads our specs needs: the standard formats (ajv-formats), OpenAPI's own
// formats (int32, int64, float, double: bounds carry the meaning; uri-reference) accepted as
// annotations, and document-local refs rebased onto a registered root.
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);
type AddFormats = (ajv: Ajv2020, options: { mode: 'full' | 'fast'; keywords: boolean }) => Ajv2020;

export function addSpecFormats<A extends Ajv2020>(ajv: A): A {
  // Required here, not when the module loads: readers of the spec model that validate nothing (the
  // service's docs pages) then never load ajv-formats (and the Ajv it brings).
  const addFormats = require('ajv-formats') as AddFormats;
  // `full` (also ajv-formats' default, spelled out because it matters): `date` is checked against
  // the calendar (2026-02-30 and 2027-02-29 fail) and the year has four digits; `fast` checks the
  // shape only.
  addFormats(ajv, { mode: 'full', keywords: true });
  for (const format of ['int32', 'int64', 'float', 'double', 'uri-reference']) ajv.addFormat(format, true);
  return ajv;
}

/** Rewrites document-local refs (`#/components/...`) to refs into the registered root `base`. */
export function rebaseRefs<T>(node: T, base: string): T {
  if (Array.isArray(node)) return (node as unknown[]).map((item) => rebaseRefs(item, base)) as T;
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${base}${value}` : rebaseRefs(value, base),
    ]),
  ) as T;
}
