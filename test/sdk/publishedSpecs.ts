// What a client team starts from: the two documents as the running service publishes them,
// downloaded into a scratch directory. The directory sits under the repository's `.tmp/` (ignored
// by git and by the project's tsc) so that Node and TypeScript resolve `openapi-fetch`, `ws`, ...
// from this repository's node_modules, as they would from the client's own.
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/testServer.js';

const scratchRoot = path.resolve(import.meta.dirname, '../../.tmp');

export interface PublishedSpecs {
  server: TestServer;
  dir: string;
  openapiFile: string;
  asyncapiFile: string;
  /** stops the server and removes the scratch directory */
  dispose(): Promise<void>;
}

async function download(baseUrl: string, name: string, dir: string): Promise<string> {
  const res = await fetch(`${baseUrl}/${name}`);
  if (res.status !== 200) throw new Error(`GET /${name}: ${res.status}`);
  const file = path.join(dir, name);
  fs.writeFileSync(file, await res.text());
  return file;
}

export async function startWithPublishedSpecs(label: string): Promise<PublishedSpecs> {
  const server = await startTestServer();
  fs.mkdirSync(scratchRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(scratchRoot, `sdk-${label}-`));
  try {
    return {
      server,
      dir,
      openapiFile: await download(server.url, 'openapi.yaml', dir),
      asyncapiFile: await download(server.url, 'asyncapi.yaml', dir),
      async dispose() {
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
