// The mock server answers every operation of specs/openapi.yaml with its documented success status
// and example, in-process (app.request), with the spec read independently of openapi-backend.
import path from 'node:path';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../../codegen/bundle.js';
import { resolveRef } from '../../codegen/openapiModel.js';
import { routes } from '../../generated/routes.js';
import { createMockApp } from '../../scripts/mockServer.js';

type Json = any; // the raw spec, read the same way codegen reads it

const spec: Json = readYaml(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'));
const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Case {
  operationId: string;
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  example: unknown;
  headers: Record<string, string>;
}

function firstExample(media: Json): unknown {
  if (media.example !== undefined) return media.example;
  const [first] = Object.values<Json>(media.examples ?? {});
  return first === undefined ? undefined : resolveRef(spec, first).value;
}

const cases: Case[] = Object.entries<Json>(spec.paths).flatMap(([template, rawItem]) => {
  const item = resolveRef(spec, rawItem);
  return methods
    .filter((method) => item[method])
    .map((method): Case => {
      const op = item[method];
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolveRef(spec, p));
      const url = template.replace(/\{([^}]+)\}/g, (_m, name: string) => String(params.find((p: Json) => p.in === 'path' && p.name === name).example));
      const status = Object.keys(op.responses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0]!;
      const response = resolveRef(spec, op.responses[String(status)]);
      const [contentType, media] = Object.entries<Json>(response.content ?? {})[0] ?? [null, null];
      const headers = Object.fromEntries(
        Object.entries<Json>(response.headers ?? {})
          .map(([name, h]) => [name, resolveRef(spec, h)] as const)
          .filter(([, h]) => h.required === true)
          .map(([name, h]) => [name, String(h.example)]),
      );
      return { operationId: op.operationId, method: method.toUpperCase(), url, status, contentType, example: media ? firstExample(media) : undefined, headers };
    });
});

let app: Hono;
beforeAll(async () => {
  app = await createMockApp();
});

describe('mock server', () => {
  it('covers every operation the service routes', () => {
    expect(cases.map((c) => c.operationId).sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  it.each(cases)('$operationId: $method $url answers $status with the spec example', async ({ method, url, status, contentType, example, headers }) => {
    const res = await app.request(url, { method, headers: { Authorization: 'Bearer mock' } });
    expect(res.status).toBe(status);
    for (const [name, value] of Object.entries(headers)) expect(res.headers.get(name)).toBe(value);
    if (contentType === null) {
      expect(await res.text()).toBe('');
      return;
    }
    expect(res.headers.get('content-type')).toContain(contentType);
    if (contentType === 'application/json') expect(await res.json()).toEqual(example);
    else expect(await res.text()).toBe(example);
  });

  it('answers Prefer: code=404 on getTripPlan with the TRIP101 example', async () => {
    const res = await app.request('/api/v1/trips/42', { headers: { Prefer: 'code=404' } });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { success: boolean; status: number; data: { code: string } };
    expect(body).toEqual(firstExample(resolveRef(spec, spec.components.responses.TripPlanNotFound).content['application/json']));
    expect(body.data.code).toBe('TRIP101');
  });

  it('answers Prefer: example=<name> with that example, finding its status by name', async () => {
    const res = await app.request('/api/v1/trips/42', { headers: { Prefer: 'example=expiredToken' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { data: { code: string } }).data.code).toBe('AUTH002');
  });

  it('sends the required Retry-After of a documented 429', async () => {
    const res = await app.request('/api/v1/trips', { headers: { Prefer: 'code=429' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('30');
  });

  it('refuses a Prefer code the operation does not document', async () => {
    const res = await app.request('/api/v1/trips/42', { headers: { Prefer: 'code=418' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers an unknown path with 404 COMMON404', async () => {
    const res = await app.request('/api/v1/nowhere');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { data: { code: string } }).data.code).toBe('COMMON404');
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const res = await app.request('/api/v1/trips', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, POST');
  });
});
