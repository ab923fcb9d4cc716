// Semver is the escape hatch: a breaking change is accepted when the document's info.version major
// went up, because then clients were told.
import { jsonAt, jsonText, type JsonObject } from '../specModel/index.js';

export function majorOf(version: string): number | null {
  const match = /^v?(\d+)\./.exec(version);
  return match ? Number(match[1]) : null;
}

export function versionOf(doc: JsonObject): string {
  return jsonText(jsonAt(doc, 'info', 'version') ?? '?');
}

export function majorBumped(oldDoc: JsonObject, newDoc: JsonObject): boolean {
  const [before, after] = [majorOf(versionOf(oldDoc)), majorOf(versionOf(newDoc))];
  return before !== null && after !== null && after > before;
}
