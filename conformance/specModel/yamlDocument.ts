// A spec document from text, a file or a URL. Specs are YAML (and JSON, which YAML reads too);
// this is the one place they are parsed, so every reader sees the same document.
import fs from 'node:fs';
import YAML from 'yaml';

type JsonObject = { [key: string]: any };

export function parseYaml(text: string): JsonObject {
  return YAML.parse(text) as JsonObject;
}

export function readYaml(file: string): JsonObject {
  return parseYaml(fs.readFileSync(file, 'utf8'));
}

/** GET of a served document (e.g. a server's /openapi.yaml); anything but a 200 throws, naming the URL. */
export async function fetchYaml(url: string, timeoutMs: number): Promise<JsonObject> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return parseYaml(text);
}
