// Where the runner gets the specs it judges a server by: by default the documents the server under
// test serves (GET <base>/openapi.yaml and <base>/asyncapi.yaml, self-contained), or files given on
// the command line, so the runner needs no copy of anyone's specs/ folder. A document over the size
// limit is refused unread (a served one is read up to the limit, no further).
import fs from 'node:fs';
import { bundle, crossFileRefs, defaultMaxDocumentBytes, fetchYaml, readYaml, type JsonObject } from '../specModel/index.js';
import { beforeDeadline, deadlinePassed } from './deadline.js';
import { SetupError } from './runContext.js';
import { createSpecIndex, type SpecIndex } from './specIndex.js';

export interface SpecSources {
  baseUrl: string;
  /** read instead of GET <base>/openapi.yaml */
  openapiFile?: string | undefined;
  /** read (bundled against the files its refs name) instead of GET <base>/asyncapi.yaml */
  asyncapiFile?: string | undefined;
  /** the longest a GET of a document may take; also the bound of each validation of the index */
  timeoutMs: number;
  /** the largest document read (default 10 MiB) */
  maxDocumentBytes?: number | undefined;
  /** when set (epoch ms): reading the specs, and every validation of the index, end by then */
  deadlineAt?: number | undefined;
}

async function served(url: string, sources: SpecSources): Promise<JsonObject> {
  let document: JsonObject;
  try {
    document = await fetchYaml(url, sources.timeoutMs, sources.maxDocumentBytes ?? defaultMaxDocumentBytes);
  } catch (error) {
    // An unreachable server (fetch failed) is reported as such by the CLI.
    if (error instanceof TypeError) throw error;
    throw new SetupError(
      `cannot read the spec ${url}: ${error instanceof Error ? error.message : String(error)}; pass it as a file (--openapi, --asyncapi) instead`,
    );
  }
  const external = crossFileRefs(document);
  if (external.length > 0)
    throw new SetupError(`${url} is not self-contained (it refers to ${external[0]}); pass it as a file (--openapi, --asyncapi) instead`);
  return document;
}

function fromFile(file: string, read: (file: string) => JsonObject, maxBytes: number): JsonObject {
  try {
    const bytes = fs.statSync(file).size;
    if (bytes > maxBytes) throw new Error(`it has ${bytes} bytes, over the limit of ${maxBytes}`);
    return read(file);
  } catch (error) {
    throw new SetupError(`cannot read the spec ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function readDocuments(sources: SpecSources, openapiSource: string, asyncapiSource: string): Promise<[JsonObject, JsonObject]> {
  const maxBytes = sources.maxDocumentBytes ?? defaultMaxDocumentBytes;
  const openapi = sources.openapiFile ? fromFile(sources.openapiFile, readYaml, maxBytes) : await served(openapiSource, sources);
  const asyncapi = sources.asyncapiFile ? fromFile(sources.asyncapiFile, bundle, maxBytes) : await served(asyncapiSource, sources);
  return [openapi, asyncapi];
}

export async function readSpecs(sources: SpecSources): Promise<{ spec: SpecIndex; openapiSource: string; asyncapiSource: string }> {
  const openapiSource = sources.openapiFile ?? `${sources.baseUrl}/openapi.yaml`;
  const asyncapiSource = sources.asyncapiFile ?? `${sources.baseUrl}/asyncapi.yaml`;
  const documents = await beforeDeadline(readDocuments(sources, openapiSource, asyncapiSource), sources.deadlineAt);
  if (documents === deadlinePassed) throw new SetupError(`the run's deadline passed while reading the specs`);
  const [openapi, asyncapi] = documents;
  const spec = createSpecIndex(openapi, asyncapi, { timeoutMs: sources.timeoutMs, deadlineAt: sources.deadlineAt });
  return { spec, openapiSource, asyncapiSource };
}
