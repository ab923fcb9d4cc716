// The module hooks of recordPackageLoads.ts (they run on the loader thread).
import fs from 'node:fs';

interface Settings {
  file?: string;
  match?: string;
}
type Resolved = { url: string };
type NextResolve = (specifier: string, context: unknown) => Promise<Resolved>;

let settings: Settings = {};

export function initialize(data: Settings): void {
  settings = data;
}

export async function resolve(specifier: string, context: unknown, nextResolve: NextResolve): Promise<Resolved> {
  const resolved = await nextResolve(specifier, context);
  const { file, match } = settings;
  if (file && match && resolved.url.includes(match)) fs.appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
