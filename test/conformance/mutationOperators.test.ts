// The mutation operators as a list: each quotes a line the specs still have (at the pointer it
// names), has a unique id, one line of description and phases the runner has (or the paging phase
// it is meant to get); they are spread over what the specs promise, HTTP and STOMP alike; and the
// table of docs/conformance.md lists each of them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allOperators } from '../../conformance/mutation/operators/index.js';
import { quoteProblem } from '../../conformance/mutation/specQuote.js';
import { allPhases } from '../../conformance/runner/runner.js';
import { readYaml } from '../../conformance/specModel/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const documents = { 'openapi.yaml': readYaml(path.join(root, 'specs/openapi.yaml')), 'asyncapi.yaml': readYaml(path.join(root, 'specs/asyncapi.yaml')) };

describe('the mutation operators', () => {
  it('each quote stands in the spec, at its pointer', () => {
    const problems = allOperators.flatMap((o) => {
      const problem = quoteProblem(documents[o.quote.file], o.quote);
      return problem ? [`${o.id}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('a quote the spec does not have, or a pointer to nothing, is found out', () => {
    const openapi = documents['openapi.yaml'];
    expect(quoteProblem(openapi, { file: 'openapi.yaml', pointer: '/components/headers/RetryAfter/description', text: 'Milliseconds to wait' })).toMatch(
      /does not say "Milliseconds to wait"/,
    );
    expect(quoteProblem(openapi, { file: 'openapi.yaml', pointer: '/components/headers/RetryAfterMs/description', text: 'Seconds' })).toMatch(/has nothing at/);
    expect(
      quoteProblem(openapi, { file: 'openapi.yaml', pointer: '/components/schemas/ErrorEnvelope/additionalProperties', text: 'additionalProperties: false' }),
    ).toBeNull();
  });

  it('are at least 40, with unique kebab-case ids and one-line descriptions', () => {
    expect(allOperators.length).toBeGreaterThanOrEqual(40);
    const ids = allOperators.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
    expect(allOperators.filter((o) => o.description.includes('\n') || o.description.length > 160).map((o) => o.id)).toEqual([]);
  });

  it('name phases the runner has, or the paging phase still to come', () => {
    const known = new Set<string>([...allPhases, 'paging']);
    expect(allOperators.flatMap((o) => o.phases.filter((p) => !known.has(p)).map((p) => `${o.id}: ${p}`))).toEqual([]);
    expect(allOperators.filter((o) => o.phases.length === 0).map((o) => o.id)).toEqual([]);
  });

  it('break both specs, each with several kinds of bug', () => {
    expect(allOperators.filter((o) => o.quote.file === 'openapi.yaml').length).toBeGreaterThanOrEqual(20);
    expect(allOperators.filter((o) => o.quote.file === 'asyncapi.yaml').length).toBeGreaterThanOrEqual(15);
    // Mutations of HTTP, of the server's frames and of the client's frames.
    const kinds = new Set(allOperators.flatMap((o) => Object.keys(o.mutation())));
    expect([...kinds].sort()).toEqual(['request', 'response', 'toClient', 'toServer']);
  });

  it('are the rows of the table in docs/conformance.md, in order', () => {
    const docs = fs.readFileSync(path.join(root, 'docs/conformance.md'), 'utf8');
    const table = docs.slice(docs.indexOf('| Operator | The bug |')).split('\n\n')[0]!;
    const ids = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]);
    expect(ids).toEqual(allOperators.map((o) => o.id));
    expect(docs).toMatch(new RegExp(`Each of its ${allOperators.length}\\s+operators`));
  });
});
