// The spec lint's rules of openapi.yaml's own extensions: the real spec passes them, and each edited
// copy below is refused with the line that says what is wrong.
import { describe, expect, it } from 'vitest';
import { arrayOrEmpty, jsonAt, objectOrEmpty, readYaml, type JsonObject } from '../../conformance/specModel/index.js';
import { errorCodeListProblems } from '../../conformance/lint/errorCodeLists.js';
import { pagingExtensionProblems } from '../../conformance/lint/pagingExtensionRule.js';
import { openapiPath } from '../../codegen/specFiles.js';

const spec = readYaml(openapiPath);

/** A copy of the spec with `edit` applied. */
function edited(edit: (openapi: JsonObject) => unknown): JsonObject {
  const copy = structuredClone(spec);
  edit(copy);
  return copy;
}
/** The object under a path of the document, to edit in place. */
const at = (openapi: JsonObject, ...path: string[]) => objectOrEmpty(jsonAt(openapi, ...path));
const response = (openapi: JsonObject, name: string) => at(openapi, 'components', 'responses', name);
const operation = (openapi: JsonObject, path: string) => at(openapi, 'paths', path, 'get');
const codesOf = (openapi: JsonObject, name: string) => arrayOrEmpty(response(openapi, name)['x-error-codes']);

describe('x-error-codes', () => {
  it('holds for the real spec: every JSON error response lists codes of its status', () => {
    expect(errorCodeListProblems(spec)).toEqual([]);
  });

  it.each([
    [
      'a response without the list',
      (o: JsonObject) => delete response(o, 'TripPlanNotFound')['x-error-codes'],
      'paths./api/v1/trips/{tripPlanId}.get.responses.404 (#/components/responses/TripPlanNotFound): a JSON error response without x-error-codes',
    ],
    ['an empty list', (o: JsonObject) => (response(o, 'Forbidden')['x-error-codes'] = []), 'x-error-codes must be a non-empty list of codes'],
    ['a code ErrorCode does not have', (o: JsonObject) => codesOf(o, 'ChatRoomNotFound').push('CHAT999'), 'lists CHAT999, which is not in ErrorCode'],
    [
      "a code of another status (409 on a 404)",
      (o: JsonObject) => codesOf(o, 'ScheduleNotFound').push('TRIP106'),
      'paths./api/v1/trips/{tripPlanId}/daily-plans/{dayNumber}/scheduled-places.patch.responses.404 (#/components/responses/ScheduleNotFound): x-error-codes lists TRIP106, whose x-http-status is 409, not 404',
    ],
    [
      'a list on a success',
      (o: JsonObject) => (at(o, 'paths', '/api/v1/members/me', 'get', 'responses', '200')['x-error-codes'] = ['MEMBER001']),
      'paths./api/v1/members/me.get.responses.200: x-error-codes on a response that is not an error',
    ],
  ])('refuses %s', (_name, edit, problem) => {
    expect(errorCodeListProblems(edited(edit))).toContainEqual(expect.stringContaining(problem));
  });
});

describe('x-paging', () => {
  it('holds for the real spec: it names parameters and item fields the lists have', () => {
    expect(pagingExtensionProblems(spec)).toEqual([]);
  });

  const trips = (o: JsonObject) => at(o, 'paths', '/api/v1/trips', 'get', 'x-paging');
  const chat = (o: JsonObject) => at(o, 'paths', '/api/v1/chats/{chatRoomId}/messages', 'get');
  it.each([
    ['a cursor parameter the list does not have', (o: JsonObject) => (trips(o).cursorParameter = 'page'), 'cursorParameter page is not a query parameter of the operation'],
    ['a cursor field the items do not have', (o: JsonObject) => (trips(o).cursorField = 'uuid'), 'cursorField uuid is not a field of the items'],
    ['a sort key the items do not have', (o: JsonObject) => (at(trips(o), 'sortKeys').startDate = 'beginsOn'), 'sortKeys.startDate is beginsOn: neither creation nor a field of the items'],
    ['a sort field the sort parameter refuses', (o: JsonObject) => (at(trips(o), 'sortKeys').title = 'title'), 'the sort value title:asc does not match its pattern'],
    ['both a sort parameter and a fixed order', (o: JsonObject) => (trips(o).order = 'createdAt:desc'), 'needs either sortParameter or order (not both)'],
    [
      'a fixed order of a field sortKeys does not name',
      (o: JsonObject) => (at(chat(o), 'x-paging').order = 'createdAt:desc'),
      'order createdAt:desc is not field:asc or field:desc of a field of sortKeys',
    ],
    [
      'a paged list without it',
      (o: JsonObject) => delete chat(o)['x-paging'],
      'paths./api/v1/chats/{chatRoomId}/messages.get: a cursor-paged list without x-paging',
    ],
    [
      'it on an operation that is not a list',
      (o: JsonObject) => (operation(o, '/api/v1/members/me')['x-paging'] = { cursorParameter: 'cursor' }),
      'paths./api/v1/members/me.get: x-paging on an operation whose 200 body is not a cursor page',
    ],
  ])('refuses %s', (_name, edit, problem) => {
    expect(pagingExtensionProblems(edited(edit))).toContainEqual(expect.stringContaining(problem));
  });
});
