// The mock's answer to a `Prefer` header it cannot honour: RFC 9457 problem JSON, bounded the way the
// service bounds its error bodies (src/kernel/errorBodyLimits.ts) whatever the header's size, so a
// client cannot make the mock send back what it sent.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type Mock } from '../../../tools/mock/createMock.js';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';
import { ERROR_BODY_MAX_BYTES, TRUNCATION_MARKER, errorTextLimits } from '../../../src/kernel/errorBodyLimits.js';

const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };
const headers = (prefer: string) => ({ authorization: 'Bearer any.token', prefer });

/** The problem JSON the mock answers, with the service's bound on an error's message as the detail's. */
const isBoundedProblem = new Ajv2020({ allErrors: true }).compile({
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  additionalProperties: false,
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { const: 400 },
    detail: { type: 'string', maxLength: errorTextLimits.message },
  },
});

async function expectBoundedProblem(res: Response, echoed: string): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const text = await res.text();
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ERROR_BODY_MAX_BYTES);
  const body = JSON.parse(text) as unknown;
  expect(isBoundedProblem(body), JSON.stringify(isBoundedProblem.errors)).toBe(true);
  const { detail } = body as { detail: string };
  expect(detail).toContain(`"${echoed.slice(0, errorTextLimits.rejectedValue - TRUNCATION_MARKER.length)}${TRUNCATION_MARKER}"`);
}

let mock: Mock;
let running: RunningMock;
beforeAll(async () => {
  mock = createMock(env);
  running = await startMockServer(0, '127.0.0.1', env);
});
afterAll(async () => {
  mock.close();
  await running.close();
});

describe('mock server: a Prefer header it cannot honour', () => {
  it('answers a 100 KB example name with a bounded problem that cuts the name', async () => {
    const name = 'n'.repeat(100 * 1024);
    await expectBoundedProblem(await mock.hono.request('/api/v1/trips/42', { headers: headers(`example=${name}`) }), name);
  });

  it('cuts the name too when the status is given, and over HTTP (the largest header Node lets through)', async () => {
    // Node refuses request headers over 16 KiB in all (431) before the mock sees them.
    const name = 'm'.repeat(15 * 1024);
    await expectBoundedProblem(await fetch(`${running.url}/api/v1/trips/42`, { headers: headers(`code=200, example=${name}`) }), name);
  });
});
