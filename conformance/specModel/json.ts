// JSON as it comes from a parsed document or a server's answer: nothing about its shape is known
// until it is checked, so readers narrow it here instead of trusting an `any`.
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value as an object, or an empty one when it is anything else (a missing or malformed part of a document). */
export const objectOrEmpty = (value: unknown): JsonObject => (isJsonObject(value) ? value : {});

/** The value as an array, or an empty one when it is anything else. */
export const arrayOrEmpty = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** The value if it is a string, else undefined. */
export const stringOrUndefined = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The value under a path of object keys and array indexes, or undefined where the path leaves the value. */
export function jsonAt(value: Json | undefined, ...path: (string | number)[]): Json | undefined {
  let node = value;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isJsonObject(node) && typeof key === 'string' && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The value if it is a number, else undefined. */
export const numberOrUndefined = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A string as it is, any other value as JSON (`42`, `true`, `{"a":1}`): what String() would print, without `[object Object]`. */
export const jsonText = (value: Json | undefined): string => (value === undefined ? 'undefined' : typeof value === 'string' ? value : JSON.stringify(value));
