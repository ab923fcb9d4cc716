// Where the runner gets the specs it judges a server by: by default the documents the server under
// test serves (GET <base>/openapi.yaml and <base>/asyncapi.yaml, self-contained), or files given on
// the command line, so the runner needs no copy of anyone's specs/ folder.
import { bundle, crossFileRefs, fetchYaml, readYaml, type JsonObject } from '../specModel/index.js';
import { SetupError } from './runContext.js';
import { createSpecIndex, type SpecIndex } from './specIndex.js';

export interface SpecSources {
  baseUrl: string;
  /** read instead of GET <base>/openapi.yaml */
  openapiFile?: string | undefined;
  /** read (bundled against the files its refs name) instead of GET <base>/asyncapi.yaml */
  asyncapiFile?: string | undefined;
  timeoutMs: number;
}

async function served(url: string, timeoutMs: number): Promise<JsonObject> {
  let document: JsonObject;
  try {
    document = await fetchYaml(url, timeoutMs);
  } catch (error) {
    // An unreachable server (fetch failed) is reported as such by the CLI.
    if (error instanceof TypeError) throw error;
    throw new SetupError(`cannot read the spec: ${error instanceof Error ? error.message : String(error)}; pass it as a file (--openapi, --asyncapi) instead`);
  }
  const external = crossFileRefs(document);
  if (external.length > 0)
    throw new SetupError(`${url} is not self-contained (it refers to ${external[0]}); pass it as a file (--openapi, --asyncapi) instead`);
  return document;
}

function fromFile(file: string, read: (file: string) => JsonObject): JsonObject {
  try {
    return read(file);
  } catch (error) {
    throw new SetupError(`cannot read the spec ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function readSpecs(sources: SpecSources): Promise<{ spec: SpecIndex; openapiSource: string; asyncapiSource: string }> {
  const openapiSource = sources.openapiFile ?? `${sources.baseUrl}/openapi.yaml`;
  const asyncapiSource = sources.asyncapiFile ?? `${sources.baseUrl}/asyncapi.yaml`;
  const openapi = sources.openapiFile ? fromFile(sources.openapiFile, readYaml) : await served(openapiSource, sources.timeoutMs);
  const asyncapi = sources.asyncapiFile ? fromFile(sources.asyncapiFile, bundle) : await served(asyncapiSource, sources.timeoutMs);
  return { spec: createSpecIndex(openapi, asyncapi), openapiSource, asyncapiSource };
}
