// The generated JSON writers (generated/serializers.ts, codegen/emitSerializers.ts) write what
// JSON.stringify writes for every documented response, restricted to the documented properties, and
// stay valid JSON whatever the value holds.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { emitSerializers } from '../../codegen/emitSerializers.js';
import { loadSpecFolder, readOperations, type Json } from '../../conformance/specModel/index.js';
import { specsDir } from '../../codegen/specFiles.js';
import type { OperationId } from '../../generated/operations.js';
import { responseSerializers } from '../../generated/serializers.js';

const operations = readOperations(loadSpecFolder(specsDir).openapi);
const writerOf = (operationId: OperationId, status: number) => {
  const write = responseSerializers[operationId]?.[status];
  if (!write) throw new Error(`no writer for ${operationId} ${status}`);
  return write;
};

/** A trip list page as a handler returns it, its keys in the schema's order. */
const tripPage = (titles: string[], overrides: Record<string, unknown> = {}) => ({
  success: true,
  status: 200,
  data: {
    content: titles.map((title, i) => ({
      id: i + 1,
      memberId: 7,
      chatRoomId: 100 + i,
      title,
      startDate: '2026-05-01',
      isCompleted: i % 2 === 0,
      region: 'Busan',
      imageUrl: i % 2 === 0 ? null : 'https://example.com/a.png',
      ...overrides,
    })),
    nextCursor: titles.length > 0 ? titles.length : null,
    hasNext: false,
    size: titles.length,
  },
});

describe('generated response writers', () => {
  const documented = operations.flatMap((op) =>
    op.responses
      .filter((r) => r.contentType === 'application/json' && r.schema)
      .flatMap((r) => r.examples.filter((e) => e.value !== undefined).map((e) => ({ op, status: r.status, example: e }))),
  );

  it('exist for every documented JSON response', () => {
    for (const op of operations)
      for (const r of op.responses.filter((r) => r.contentType === 'application/json' && r.schema))
        expect(responseSerializers[op.operationId as OperationId]?.[r.status], `${op.operationId} ${r.status}`).toBeTypeOf('function');
  });

  it('write every example of openapi.yaml as JSON that parses back to the example', () => {
    expect(documented.length).toBeGreaterThan(30);
    for (const { op, status, example } of documented) {
      const text = writerOf(op.operationId as OperationId, status)(example.value);
      expect(JSON.parse(text), `${op.operationId} ${status} ${example.name}`).toEqual(example.value);
    }
  });

  it('write the same text as JSON.stringify for a value whose keys come in the schema order', () => {
    const page = tripPage(['Busan trip', '부산 여행', 'say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', '\u0000\u001f', '🌊 surf', 'lone \ud800 surrogate', 'x'.repeat(200)]);
    expect(writerOf('listTripPlans', 200)(page)).toBe(JSON.stringify(page));
    const empty = tripPage([]);
    expect(writerOf('listTripPlans', 200)(empty)).toBe(JSON.stringify(empty));
  });

  it('write random strings exactly as JSON.stringify does', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const codes = [0, 9, 10, 31, 32, 34, 39, 47, 92, 127, 0x7f, 0xe9, 0xac00, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe];
    for (let n = 0; n < 500; n++) {
      const title = Array.from({ length: Math.floor(random() * 80) }, () =>
        random() < 0.5 ? String.fromCharCode(97 + Math.floor(random() * 26)) : String.fromCharCode(codes[Math.floor(random() * codes.length)]!),
      ).join('');
      const page = tripPage([title]);
      expect(writerOf('listTripPlans', 200)(page)).toBe(JSON.stringify(page));
    }
  });

  it('leave out what the schema does not document', () => {
    const page = tripPage(['a'], { internalNote: 'not on the wire' });
    expect(JSON.parse(writerOf('listTripPlans', 200)({ ...page, debug: true }))).toEqual(tripPage(['a']));
  });

  it('stay valid JSON for a value that breaks the schema (the response checker reports it in tests)', () => {
    const write = writerOf('listTripPlans', 200);
    const broken = [
      tripPage(['a'], { id: 'seven', title: 42, isCompleted: 'yes', imageUrl: { nested: [1] } }),
      tripPage(['a'], { id: Number.NaN, memberId: Infinity, title: undefined }),
      { success: true, status: 200, data: { content: null, nextCursor: 'x', hasNext: 1, size: [] } },
      { success: true, status: 200, data: 'not an object' },
      null,
      [1, 2],
    ];
    for (const value of broken) expect(() => JSON.parse(write(value)) as unknown, JSON.stringify(value)).not.toThrow();
    expect(JSON.parse(write(broken[1]))).toMatchObject({ data: { content: [{ id: null, memberId: null, title: null }] } });
  });
});

/** The writer emitSerializers makes for `schema` as the 200 response of one operation, compiled and loaded. */
async function writerFor(schema: Json, components: Record<string, Json> = {}): Promise<(value: unknown) => string> {
  const openapi = {
    openapi: '3.1.0',
    paths: { '/x': { get: { operationId: 'getX', responses: { '200': { description: 'x', content: { 'application/json': { schema } } } } } } },
    components: { schemas: components },
  };
  const source = emitSerializers(openapi, readOperations(openapi)).replace(/^import type .*$/m, 'type OperationId = string;');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const loaded = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as {
    responseSerializers: Record<string, Record<number, (value: unknown) => string>>;
  };
  return loaded.responseSerializers.getX![200]!;
}

describe('the writer emitter, on schemas the spec does not have yet', () => {
  it('writes optional properties only when present, with the commas right wherever they fall', async () => {
    const write = await writerFor({
      type: 'object',
      additionalProperties: false,
      required: ['b'],
      properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: ['boolean', 'null'] }, d: { type: 'array', items: { $ref: '#/components/schemas/Tag' } } },
    }, { Tag: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' }, note: { type: 'string' } } } });
    const values = [
      { b: 1 },
      { a: 'x', b: 1 },
      { b: 1, c: null },
      { a: 'x', b: 2, c: true, d: [{ name: 'n' }, { name: 'm', note: 'o' }] },
      { b: 3, d: [] },
    ];
    for (const value of values) expect(write(value)).toBe(JSON.stringify(value));
    expect(write({ a: undefined, b: 1, c: undefined })).toBe('{"b":1}');
  });

  it('writes an object of optional properties only as {} when none is present', async () => {
    const write = await writerFor({ type: 'object', additionalProperties: false, properties: { a: { type: 'string' }, b: { type: 'number' } } });
    expect(write({})).toBe('{}');
    expect(write({ b: 1.5 })).toBe('{"b":1.5}');
    expect(write({ a: 'q', b: -0 })).toBe('{"a":"q","b":0}');
  });

  it('leaves to JSON.stringify what a writer cannot know: open objects, oneOf, no type; and follows a schema that refers to itself', async () => {
    const write = await writerFor({
      type: 'object',
      additionalProperties: false,
      required: ['open', 'either', 'any', 'tree'],
      properties: {
        open: { type: 'object', properties: { a: { type: 'string' } } },
        either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        any: {},
        tree: { $ref: '#/components/schemas/Node' },
      },
    }, { Node: { type: 'object', additionalProperties: false, required: ['children'], properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } });
    const value = { open: { a: 'x', extra: [1] }, either: 3, any: { deep: [null, 'y'] }, tree: { children: [{ children: [] }, { children: [{ children: [] }] }] } };
    expect(write(value)).toBe(JSON.stringify(value));
  });
});
