// Where the specs and the generated output live, resolved from this file so codegen runs from any cwd.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const specsDir = path.join(repoRoot, 'specs');
export const generatedDir = path.join(repoRoot, 'generated');
export const openapiPath = path.join(specsDir, 'openapi.yaml');
export const asyncapiPath = path.join(specsDir, 'asyncapi.yaml');
/** not published: events the service sends itself (see its info.description) */
export const internalEventsPath = path.join(specsDir, 'internal', 'events.asyncapi.yaml');
