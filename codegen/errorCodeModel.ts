// Reads the one list of error codes, `components.schemas.ErrorCode` of openapi.yaml: a `oneOf` of
// string `const`s, each with its meaning, `x-http-status` and/or `x-stomp`, and
// `x-default-message`. Every fact of a code is written once, in its alternative; this turns the
// list into plain facts and refuses a list an emitter could not trust.

import { jsonAt, objectOrEmpty, type JsonObject } from '../conformance/specModel/index.js';

export type StompCarrier = 'error-frame' | 'errors-channel';
const stompCarriers: readonly StompCarrier[] = ['error-frame', 'errors-channel'];

/** The keywords a code's alternative may carry beyond JSON Schema's (Ajv must know them). */
export const errorCodeKeywords = ['x-open-enum', 'x-http-status', 'x-stomp', 'x-default-message', 'x-field-errors'] as const;

export interface ErrorCodeFact {
  code: string;
  description: string;
  httpStatus: number | null;
  stomp: StompCarrier[];
  message: string;
}

export function readErrorCodes(openapi: JsonObject): ErrorCodeFact[] {
  const alternatives = jsonAt(openapi, 'components', 'schemas', 'ErrorCode', 'oneOf');
  if (!Array.isArray(alternatives)) throw new Error('openapi.yaml: components.schemas.ErrorCode must be a oneOf of error codes');
  const facts: ErrorCodeFact[] = alternatives.map(objectOrEmpty).map((alternative, index) => {
    const where = `ErrorCode.oneOf[${index}]`;
    const code = alternative.const;
    if (alternative.type !== 'string' || typeof code !== 'string' || !/^[A-Z]+[0-9]{3}$/.test(code)) {
      throw new Error(`${where}: needs type: string and a const like TRIP101`);
    }
    const httpStatus = alternative['x-http-status'] ?? null;
    if (httpStatus !== null && !(typeof httpStatus === 'number' && Number.isInteger(httpStatus) && httpStatus >= 400 && httpStatus <= 599)) {
      throw new Error(`${where} ${code}: x-http-status must be a 4xx or 5xx status`);
    }
    const stomp = alternative['x-stomp'] ?? [];
    if (!Array.isArray(stomp) || stomp.some((s) => !stompCarriers.includes(s as StompCarrier))) {
      throw new Error(`${where} ${code}: x-stomp must list ${stompCarriers.join(' and/or ')}`);
    }
    if (httpStatus === null && stomp.length === 0) throw new Error(`${where} ${code}: needs x-http-status, x-stomp or both`);
    const message = alternative['x-default-message'];
    if (typeof message !== 'string' || message.trim() === '') throw new Error(`${where} ${code}: needs x-default-message`);
    const description = alternative.description;
    if (typeof description !== 'string') throw new Error(`${where} ${code}: needs a description (what the code means)`);
    return { code, description: description.trim(), httpStatus, stomp: stomp as StompCarrier[], message };
  });
  const seen = new Set<string>();
  for (const { code } of facts) {
    if (seen.has(code)) throw new Error(`ErrorCode: ${code} is listed twice`);
    seen.add(code);
  }
  return facts;
}
