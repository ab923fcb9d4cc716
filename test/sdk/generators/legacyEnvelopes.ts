// The published openapi.yaml turned back into what 1.x published: the success envelope as allOf
// over a CommonResponse whose `data` is any value, the page as allOf over a CursorPage of any items,
// and a description on the server's port variable. Generators that lose the types there show it.
import { jsonAt, objectOrEmpty, type Json, type JsonObject } from '../../../conformance/specModel/index.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A copy of `openapi` with getTripPlan's envelope and listTripPlans' page as 1.0.0 wrote them. */
export function withLegacyEnvelopes(openapi: JsonObject): JsonObject {
  const legacy = structuredClone(openapi);
  const schemas = objectOrEmpty(jsonAt(legacy, 'components', 'schemas'));
  schemas.LegacyCommonResponse = {
    type: 'object',
    required: ['success', 'status', 'data'],
    properties: { success: { type: 'boolean' }, status: ref('HttpStatus'), data: {} },
  };
  schemas.CursorPage = {
    type: 'object',
    required: ['content', 'nextCursor', 'hasNext', 'size'],
    properties: {
      content: { type: 'array', maxItems: 100, items: {} },
      nextCursor: ref('NextCursor'),
      hasNext: { type: 'boolean' },
      size: { type: 'integer' },
    },
  };
  const legacyEnvelope = (data: Json) => ({
    type: 'object',
    allOf: [ref('LegacyCommonResponse'), { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } }],
    unevaluatedProperties: false,
  });
  schemas.TripPlanDetailEnvelope = legacyEnvelope(ref('TripPlanDetailResponse'));
  schemas.TripPlanPageResponse = {
    type: 'object',
    allOf: [ref('CursorPage'), { type: 'object', properties: { content: { type: 'array', items: ref('TripPlanResponse') } } }],
    unevaluatedProperties: false,
  };
  objectOrEmpty(jsonAt(legacy, 'servers', 0, 'variables', 'port')).description = 'Port of the service.';
  return legacy;
}
