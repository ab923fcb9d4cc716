// Where a project keeps its specs, and all of them read at once: openapi.yaml as written, and the
// AsyncAPI documents bundled against the openapi.yaml beside them (their cross-file refs inlined).
// Codegen, spec diff, spec lint and the mock read a folder laid out like this project's specs/.
import fs from 'node:fs';
import path from 'node:path';
import { bundle } from './bundle.js';
import type { JsonObject } from './json.js';
import { readYaml } from './yamlDocument.js';

/** The documents of a spec folder, relative to it. */
export const specFolderLayout = {
  openapi: 'openapi.yaml',
  asyncapi: 'asyncapi.yaml',
  /** not published: events the service sends itself (see its info.description) */
  internalEvents: path.join('internal', 'events.asyncapi.yaml'),
} as const;

export type SpecFolderFiles = Record<keyof typeof specFolderLayout, string>;

export function specFolderFiles(dir: string): SpecFolderFiles {
  return {
    openapi: path.join(dir, specFolderLayout.openapi),
    asyncapi: path.join(dir, specFolderLayout.asyncapi),
    internalEvents: path.join(dir, specFolderLayout.internalEvents),
  };
}

export interface SpecFolder {
  openapi: JsonObject;
  /** null: no asyncapi.yaml (in a project's history it came later than openapi.yaml) */
  asyncapi: JsonObject | null;
  /** null or absent where internal/events.asyncapi.yaml does not exist (yet) */
  internalEvents?: JsonObject | null;
}

export function loadSpecFolder(dir: string): SpecFolder {
  const files = specFolderFiles(dir);
  const bundled = (file: string) => (fs.existsSync(file) ? bundle(file) : null);
  return { openapi: readYaml(files.openapi), asyncapi: bundled(files.asyncapi), internalEvents: bundled(files.internalEvents) };
}
