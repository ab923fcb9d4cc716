// The client's operation table is written from the spec's operation facts, and codegen refuses an
// operation the runtime could not send as the spec says (a query parameter that is not one value,
// x-paging without its cursor parameter, a body that is not JSON) instead of emitting a client
// that would send it wrong.
import { describe, expect, it } from 'vitest';
import { emitClientHttpTable } from '../../codegen/client/emitClientHttpTable.js';
import { openapiPath } from '../../codegen/specFiles.js';
import { readOperations, readYaml, type OperationFact } from '../../conformance/specModel/index.js';

const operations = readOperations(readYaml(openapiPath));
const listTripPlans = operations.find((op) => op.operationId === 'listTripPlans')!;
const devLogin = operations.find((op) => op.operationId === 'devLogin')!;
const table = (op: OperationFact) => emitClientHttpTable([op], new Set(['TokenEnvelope']));

describe('the client operation table', () => {
  it('writes each operation with its x-paging and whether it issues tokens', () => {
    expect(table(listTripPlans)).toContain(
      `listTripPlans: {"method":"GET","path":"/api/v1/trips","pathParams":[],"queryParams":["size","cursor","sort"],"jsonBody":false,"secured":true,"accept":"application/json","redirects":false,"issuesTokens":false,"paging":{"cursorParameter":"cursor",`,
    );
    expect(table(devLogin)).toContain('"jsonBody":true,"secured":false,"accept":"application/json","redirects":false,"issuesTokens":true,"paging":null}');
  });

  it('refuses a query parameter that is not a single scalar value', () => {
    const withArray = { ...listTripPlans, parameters: listTripPlans.parameters.map((p) => (p.name === 'sort' ? { ...p, type: 'array' } : p)) };
    expect(() => table(withArray)).toThrow('listTripPlans: query parameter sort must be a scalar');
  });

  it('refuses x-paging whose cursor parameter the operation does not have', () => {
    expect(() => table({ ...listTripPlans, paging: { ...listTripPlans.paging!, cursorParameter: 'after' } })).toThrow(
      'listTripPlans: x-paging must name its cursorParameter',
    );
  });

  it('refuses a body that is not JSON', () => {
    expect(() => table({ ...devLogin, body: { ...devLogin.body!, contentType: 'application/x-www-form-urlencoded' } })).toThrow(
      'devLogin: the client sends JSON bodies only',
    );
  });
});

describe('the client package', () => {
  it('carries the version of the openapi.yaml its generated code was made from', async () => {
    const { default: manifest } = (await import('../../client/package.json', { with: { type: 'json' } })) as { default: { version: string } };
    const info = readYaml(openapiPath).info as { version: string };
    expect(manifest.version, 'a spec change that bumps info.version is a new client release: set client/package.json version').toBe(info.version);
  });
});
