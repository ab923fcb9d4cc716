// The slice of a dereferenced OpenAPI operation the mock reads: its documented responses, their
// first media type, example names and headers. openapi-backend's init() has already replaced every
// $ref, so plain objects are all that is left.
import type { Operation } from 'openapi-backend';

export interface SpecHeader {
  required?: boolean;
  example?: unknown;
  schema?: { example?: unknown; examples?: unknown[] };
}

export interface SpecMedia {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface SpecResponse {
  headers?: Record<string, SpecHeader>;
  content?: Record<string, SpecMedia>;
}

export function responsesOf(operation: Operation): Map<number, SpecResponse> {
  const entries = Object.entries((operation.responses ?? {}) as Record<string, SpecResponse>);
  // Numeric keys only: this spec documents explicit statuses (codegen refuses `default` and `2XX`).
  return new Map(
    entries
      .filter(([status]) => /^\d{3}$/.test(status))
      .map(([status, response]) => [Number(status), response] as const)
      .sort(([a], [b]) => a - b),
  );
}

/** The first media type of a response, and its examples' names; null for a body-less response. */
export function mediaOf(response: SpecResponse): { type: string; media: SpecMedia; exampleNames: string[] } | null {
  const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
  if (!type || !media) return null;
  return { type, media, exampleNames: [...(media.example !== undefined ? ['example'] : []), ...Object.keys(media.examples ?? {})] };
}

/** Headers the response must carry, with the value of their documented example. */
export function requiredHeaderExamples(response: SpecResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required !== true) continue;
    const example = header.example ?? header.schema?.example ?? header.schema?.examples?.[0];
    if (example !== undefined) out[name] = String(example);
  }
  return out;
}
