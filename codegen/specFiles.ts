// Where this repository's specs and the generated output live, resolved from this file so codegen
// runs from any cwd. The layout of the spec folder is the spec model's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { specFolderFiles } from '../conformance/specModel/index.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const specsDir = path.join(repoRoot, 'specs');
export const generatedDir = path.join(repoRoot, 'generated');
/** The generated parts of the client package (published alone, so they are not under generated/). */
export const clientGeneratedDir = path.join(repoRoot, 'client', 'src', 'generated');
export const { openapi: openapiPath, asyncapi: asyncapiPath, internalEvents: internalEventsPath } = specFolderFiles(specsDir);
