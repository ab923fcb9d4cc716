// Turns Ajv errors into the contract's FieldError list: one entry per failing field, with a path
// like `body.themes[2]`, `query.size` or `path.tripPlanId`, the rejected value and a message.
import type { ErrorObject } from 'ajv';
import { pointerTokens, valueAtPointer } from '../text/jsonPointer.js';
import type { FieldError } from '../kernel/appError.js';

function fieldPath(prefix: string, pointer: string): string {
  let out = prefix;
  for (const key of pointerTokens(pointer)) out += /^\d+$/.test(key) ? `[${key}]` : out ? `.${key}` : key;
  return out;
}

export function toFieldErrors(errors: ErrorObject[] | null | undefined, root: unknown, prefix: string): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    // The if/then wrapper errors only repeat what the inner error says.
    if (error.keyword === 'if') continue;
    let pointer = error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      pointer += `/${error.params.missingProperty}`;
      message = 'is required';
    } else if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const extra: unknown = error.params.additionalProperty ?? error.params.unevaluatedProperty;
      pointer += `/${String(extra)}`;
      message = 'is not a known field';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    }
    const field = fieldPath(prefix, pointer);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const rejected = error.keyword === 'required' ? null : valueAtPointer(root, pointer);
    // Parsed JSON (or parameter text), so a JSON value; bounded when the error is rendered.
    out.push({ field, rejectedValue: rejected === undefined ? null : (rejected as FieldError['rejectedValue']), message });
  }
  return out;
}
