// A spec document from text, a file or a URL. Specs are YAML (and JSON, which YAML reads too);
// this is the one place they are parsed, so every reader sees the same document.
import fs from 'node:fs';
import { createRequire } from 'node:module';

import { readTextWithin } from './boundedText.js';
import { isJsonObject, type JsonObject } from './json.js';

const require = createRequire(import.meta.url);

/** The document, which must be a mapping (every spec is one); anything else throws. */
export function parseYaml(text: string): JsonObject {
  // Required on first parse, not when the module loads (the yaml package is some 70 files): a
  // server that imports the spec model for its docs pages starts without it.
  const YAML = require('yaml') as typeof import('yaml');
  const document: unknown = YAML.parse(text);
  if (!isJsonObject(document))
    throw new Error(`expected a YAML mapping, got ${document === null ? 'null' : Array.isArray(document) ? 'a list' : typeof document}`);
  return document;
}

export function readYaml(file: string): JsonObject {
  return parseYaml(fs.readFileSync(file, 'utf8'));
}

/** The largest served document fetchYaml reads unless told otherwise: 10 MiB (this project's specs are some 200 KiB). */
export const defaultMaxDocumentBytes = 10 * 1024 * 1024;

/**
 * GET of a served document (e.g. a server's /openapi.yaml); anything but a 200 throws, naming the
 * URL, and so does a document over `maxBytes` (BodyTooLargeError), read no further than that.
 */
export async function fetchYaml(url: string, timeoutMs: number, maxBytes = defaultMaxDocumentBytes): Promise<JsonObject> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`GET ${url} answered ${response.status}`);
  }
  return parseYaml(await readTextWithin(response, maxBytes));
}
