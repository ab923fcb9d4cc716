// Both documents compared, plus what the exit code needs per document: how many breaking changes,
// and whether its info.version major went up. Each document is its own contract with its own
// version, so a breaking change in a shared schema (e.g. ErrorResponse) needs both bumped.
import { diffAsyncapi } from './asyncapiDiff.js';
import type { Api, Change } from './change.js';
import { diffOpenapi } from './openapiDiff.js';
import { majorBumped, versionOf } from './version.js';
import type { JsonObject, SpecFolder } from '../specModel/index.js';

export interface DocumentResult {
  api: Api;
  file: string;
  oldVersion: string | null; // null: the document did not exist on the old side
  newVersion: string | null; // null: the document was deleted
  changes: Change[];
  breaking: number;
  warnings: number;
  majorBumped: boolean;
}

export interface SpecDiff {
  changes: Change[];
  documents: DocumentResult[];
}

function result(api: Api, file: string, oldDoc: JsonObject | null | undefined, newDoc: JsonObject | null | undefined, changes: Change[]): DocumentResult {
  return {
    api,
    file,
    oldVersion: oldDoc ? versionOf(oldDoc) : null,
    newVersion: newDoc ? versionOf(newDoc) : null,
    changes,
    breaking: changes.filter((c) => c.severity === 'breaking').length,
    warnings: changes.filter((c) => c.severity === 'warning').length,
    majorBumped: Boolean(oldDoc && newDoc && majorBumped(oldDoc, newDoc)),
  };
}

function asyncapiChanges(api: Api, file: string, oldDoc: JsonObject | null | undefined, newDoc: JsonObject | null | undefined): Change[] {
  if (oldDoc && newDoc) return diffAsyncapi(oldDoc, newDoc, api);
  if (oldDoc) return [{ api, severity: 'breaking', rule: 'document-removed', location: file, reason: 'the AsyncAPI document was deleted' }];
  if (newDoc) return [{ api, severity: 'non-breaking', rule: 'document-added', location: file, reason: 'new AsyncAPI document; everything in it is new' }];
  return [];
}

export function diffSpecs(old: SpecFolder, current: SpecFolder): SpecDiff {
  const documents = [
    result('openapi', 'specs/openapi.yaml', old.openapi, current.openapi, diffOpenapi(old.openapi, current.openapi)),
    result(
      'asyncapi',
      'specs/asyncapi.yaml',
      old.asyncapi,
      current.asyncapi,
      asyncapiChanges('asyncapi', 'specs/asyncapi.yaml', old.asyncapi, current.asyncapi),
    ),
  ];
  // The internal events document is compared like the others once it exists on either side.
  if (old.internalEvents || current.internalEvents) {
    const file = 'specs/internal/events.asyncapi.yaml';
    documents.push(
      result(
        'internal-events',
        file,
        old.internalEvents,
        current.internalEvents,
        asyncapiChanges('internal-events', file, old.internalEvents, current.internalEvents),
      ),
    );
  }
  return { changes: documents.flatMap((d) => d.changes), documents };
}
