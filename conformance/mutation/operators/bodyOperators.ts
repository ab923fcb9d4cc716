// Bugs in the data of a response: a required field dropped, an undocumented one added, a value of
// the wrong type.
import type { MutationOperator } from '../operator.js';
import { isRequest, jsonObjectOf, rewriteResponses, withData, withJson } from './httpRewrites.js';

type JsonObject = Record<string, unknown>;
const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter((v): v is JsonObject => typeof v === 'object' && v !== null) : []);

export const bodyOperators: MutationOperator[] = [
  {
    id: 'plan-without-title',
    description: 'a trip plan is read without its title (a column left out of the query)',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/TripPlanDetailResponse/required', text: '"title"' },
    phases: ['examples'],
    meantFor: 'body_valid',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'GET', /^\/api\/v1\/trips\/\d+$/) && response.status === 200,
      (response) => withData(response, ({ title: _left, ...rest }) => rest),
    ),
  },
  {
    id: 'member-with-password-hash',
    description: 'the signed-in member is answered with an undocumented field (the row as stored)',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/MemberResponse/additionalProperties', text: 'additionalProperties: false' },
    phases: ['examples'],
    meantFor: 'body_valid',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'GET', /^\/api\/v1\/members\/me$/) && response.status === 200,
      (response) => withData(response, (data) => ({ ...data, passwordHash: '$2b$10$conformance' })),
    ),
  },
  {
    id: 'place-coordinates-as-strings',
    description: 'the places of the saved days carry latitude and longitude as strings (a decimal column read as text)',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/PlaceResponse/properties/latitude', text: 'latitude: {"type":"number"' },
    phases: ['stateful'],
    meantFor: 'body_valid',
    mutation: rewriteResponses(
      (request, response) => isRequest(request, 'GET', /^\/api\/v1\/trips\/daily-plans\/\d+$/) && response.status === 200,
      (response) => {
        const envelope = jsonObjectOf(response);
        const days = objects(envelope?.data);
        const places = days.flatMap((day) => objects(day.scheduledPlaces)).flatMap((stop) => objects([stop.place]));
        if (places.length === 0) return undefined;
        for (const place of places) [place.latitude, place.longitude] = [String(place.latitude), String(place.longitude)];
        return withJson(response, { ...envelope, data: days });
      },
    ),
  },
];
