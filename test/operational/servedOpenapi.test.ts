// The served openapi.yaml names the server that served it: its server variables default to the
// origin of the request, so Swagger UI's "Try it out" (which uses the first server) and SDKs
// generated from the served copy call that server, not the file's local default (localhost:8080).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { jsonAt, objectOrEmpty, type Json } from '../../conformance/specModel/index.js';

const written = fs.readFileSync(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'), 'utf8');

function get(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`status ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

const defaultsOf = (text: string) => {
  const variables = objectOrEmpty(jsonAt(YAML.parse(text) as Json, 'servers', 0, 'variables'));
  return Object.fromEntries(Object.entries(variables).map(([name, v]) => [name, jsonAt(v, 'default')]));
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

describe('served openapi.yaml', () => {
  it('defaults the server variables to the origin the document was fetched from', async () => {
    const { hostname, port } = new URL(s.url);
    const served = await get(`${s.url}/openapi.yaml`);
    expect(defaultsOf(written)).toEqual({ scheme: 'http', host: 'localhost', port: '8080' });
    expect(defaultsOf(served)).toEqual({ scheme: 'http', host: hostname, port });
  });

  it("takes the host a proxy forwarded and https from X-Forwarded-Proto, with the scheme's default port", async () => {
    const served = await get(`${s.url}/openapi.yaml`, { host: 'api.example.com', 'x-forwarded-proto': 'https' });
    expect(defaultsOf(served)).toEqual({ scheme: 'https', host: 'api.example.com', port: '443' });
  });

  it('changes nothing else in the document', async () => {
    const served = await get(`${s.url}/openapi.yaml`);
    const { hostname, port } = new URL(s.url);
    const lines = (text: string) => text.split('\n');
    const differing = lines(served).filter((line, i) => line !== lines(written)[i]);
    expect(lines(served)).toHaveLength(lines(written).length);
    expect(differing.map((line) => line.trim())).toEqual(['default: "http"', `default: "${hostname}"`, `default: "${port}"`]);
  });
});
