// The spec model's small readers, which codegen, the runner, spec diff, lint, the mock and the docs
// share: templates, JSON pointers and $refs, and a spec folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  componentName,
  crossFileRefs,
  fillTemplate,
  jsonAt,
  loadSpecFolder,
  mapPlaceholders,
  placeholderNames,
  pointerTokens,
  resolveRef,
  templatePattern,
} from '../../conformance/specModel/index.js';

describe('templates', () => {
  it('names, maps and fills placeholders, percent-encoding the values', () => {
    const template = '/api/v1/trips/{tripPlanId}/days/{dayNumber}';
    expect(placeholderNames(template)).toEqual(['tripPlanId', 'dayNumber']);
    expect(mapPlaceholders(template, (name) => `:${name}`)).toBe('/api/v1/trips/:tripPlanId/days/:dayNumber');
    expect(fillTemplate(template, { tripPlanId: 7, dayNumber: 'a/b' })).toBe('/api/v1/trips/7/days/a%2Fb');
    expect(fillTemplate(template, (name) => name.length)).toBe('/api/v1/trips/10/days/9');
  });

  it('refuses to leave a placeholder unfilled', () => {
    expect(() => fillTemplate('/user/sub/chat/{chatRoomId}', { tripPlanId: 1 })).toThrow('needs a value for {chatRoomId}');
  });

  it('matches concrete paths, narrowed by a parameter pattern', () => {
    const loose = new RegExp(templatePattern('/user/sub/chat/{chatRoomId}'));
    const narrow = new RegExp(templatePattern('/user/sub/chat/{chatRoomId}', { chatRoomId: '^[1-9][0-9]*$' }));
    expect(loose.exec('/user/sub/chat/03')?.[1]).toBe('03');
    expect(narrow.exec('/user/sub/chat/03')).toBeNull();
    expect(narrow.exec('/user/sub/chat/3')?.[1]).toBe('3');
    expect(() => templatePattern('/x/{id}', { id: '[0-9]+' })).toThrow('must be anchored');
  });
});

describe('pointers and $refs', () => {
  const doc = {
    components: {
      schemas: { 'a/b': { $ref: '#/components/schemas/Id' }, Id: { type: 'integer' }, Loop: { $ref: '#/components/schemas/Loop' } },
    },
  };

  it('reads escaped and percent-encoded tokens', () => {
    expect(pointerTokens('#/components/schemas/a~1b')).toEqual(['components', 'schemas', 'a/b']);
    expect(pointerTokens('#/x%20y/~0z')).toEqual(['x y', '~z']);
  });

  it('follows a chain of refs to what it names', () => {
    expect(resolveRef(doc, { $ref: '#/components/schemas/a~1b' })).toEqual({ type: 'integer' });
    expect(resolveRef(doc, { type: 'string' })).toEqual({ type: 'string' });
  });

  it('refuses a cycle, a ref to nothing and a ref into another file', () => {
    expect(() => resolveRef(doc, { $ref: '#/components/schemas/Loop' })).toThrow('cycle');
    expect(() => resolveRef(doc, { $ref: '#/components/schemas/Nope' })).toThrow('cannot resolve');
    expect(() => resolveRef(doc, { $ref: './openapi.yaml#/components/schemas/Id' })).toThrow('cross-file');
  });

  it('names the component a ref points at, and only a component', () => {
    expect(componentName('#/components/schemas/TripPlan', 'schemas')).toBe('TripPlan');
    expect(componentName('#/components/messages/TripPlan', 'schemas')).toBeNull();
    expect(componentName('#/channels/chat/messages/chat', 'messages')).toBeNull();
    expect(componentName(undefined, 'schemas')).toBeNull();
  });

  it('lists the refs that point into another file', () => {
    expect(crossFileRefs({ a: [{ $ref: './openapi.yaml#/components/schemas/Id' }], b: { $ref: '#/components/schemas/Id' } })).toEqual([
      './openapi.yaml#/components/schemas/Id',
    ]);
  });
});

describe('a spec folder', () => {
  it('bundles the AsyncAPI documents against the openapi.yaml beside them, and has null for a missing one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-folder-'));
    try {
      fs.writeFileSync(path.join(dir, 'openapi.yaml'), 'openapi: 3.1.0\ncomponents:\n  schemas:\n    Id: { type: integer }\n');
      fs.writeFileSync(
        path.join(dir, 'asyncapi.yaml'),
        "asyncapi: 3.0.0\ncomponents:\n  schemas:\n    Event: { properties: { id: { $ref: './openapi.yaml#/components/schemas/Id' } } }\n",
      );
      const folder = loadSpecFolder(dir);
      expect(jsonAt(folder.asyncapi ?? undefined, 'components', 'schemas')).toEqual({
        Event: { properties: { id: { $ref: '#/components/schemas/Id' } } },
        Id: { type: 'integer' },
      });
      expect(crossFileRefs(folder.asyncapi ?? null)).toEqual([]);
      expect(folder.internalEvents).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
