// Semver is the escape hatch: a breaking change is accepted when the document's info.version major
// went up, because then clients were told.
type Json = any;

export function majorOf(version: unknown): number | null {
  const match = /^v?(\d+)\./.exec(String(version ?? ''));
  return match ? Number(match[1]) : null;
}

export function versionOf(doc: Json): string {
  return String(doc?.info?.version ?? '?');
}

export function majorBumped(oldDoc: Json, newDoc: Json): boolean {
  const [before, after] = [majorOf(versionOf(oldDoc)), majorOf(versionOf(newDoc))];
  return before !== null && after !== null && after > before;
}
