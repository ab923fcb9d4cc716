// The detail route's load against our server and the Fastify peer: ids spread over the member's plans
// in one seeded order (detailPaths), and a load target's paths requested in that order, from its start
// on every run (runLoad with `paths`), so that both servers are asked the same sequence.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../bench/lib/loadTest.js';
import { detailPaths } from '../../bench/lib/vsFastify.js';

describe('detailPaths', () => {
  const ids = Array.from({ length: 1000 }, (_v, i) => 5000 + i * 3);

  it('asks for every id once, in an order that is the same on every call but not the ids’ own', () => {
    const paths = detailPaths(ids);
    expect([...paths].sort()).toEqual(ids.map((id) => `/api/v1/trips/${id}`).sort());
    expect(detailPaths(ids)).toEqual(paths);
    expect(paths.slice(0, 10)).not.toEqual(ids.slice(0, 10).map((id) => `/api/v1/trips/${id}`));
    // Spread: the first tenth of the sequence reaches into every tenth of the ids.
    const tenthOf = (path: string) => Math.floor((ids.indexOf(Number(path.split('/').at(-1))) * 10) / ids.length);
    expect(new Set(paths.slice(0, 100).map(tenthOf)).size).toBe(10);
  });
});

describe('runLoad with paths', () => {
  // Which run asked for which path: a request still in flight when a run ends may arrive during the next.
  const seen: { run: string; path: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ run: String(req.headers['x-run']), path: req.url! });
    res.end('ok');
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('requests the paths in turn, and starts the sequence again on the next run', async () => {
    const target = (run: string) => ({ name: 'paths', url: `${origin}/a`, headers: { 'x-run': run }, paths: ['/a', '/b', '/c'] });
    const first = await runLoad(target('1'), { seconds: 1, connections: 1, warmupSeconds: 0 });
    await runLoad(target('2'), { seconds: 1, connections: 1, warmupSeconds: 0 });
    const pathsOf = (run: string) => seen.filter((r) => r.run === run).map((r) => r.path);
    expect(first.responses).toBeGreaterThan(3);
    expect(pathsOf('1').slice(0, 7)).toEqual(['/a', '/b', '/c', '/a', '/b', '/c', '/a']);
    expect(pathsOf('2').slice(0, 4)).toEqual(['/a', '/b', '/c', '/a']);
  });
});
