// The playground's trip form, made from createTripPlanSession's request body in openapi.yaml: the
// themes and the ways of travelling are the schema's enums, each number field has the schema's
// bounds and the form its defaults, so the page offers exactly what the operation takes and no
// copy of the schema can fall behind it. The regions come from listRegions when the page loads.
import {
  arrayOrEmpty,
  jsonAt,
  numberOrUndefined,
  objectOrEmpty,
  readOperations,
  resolveObject,
  stringOrUndefined,
  type Json,
  type JsonObject,
} from '../../conformance/specModel/index.js';
import type { components } from '../../generated/openapi.js';
import { escapeHtml } from './docLinks.js';

type TripPlanCreateRequest = components['schemas']['TripPlanCreateRequest'];
type Field = keyof TripPlanCreateRequest;

/** A request body property of the schema, its `$ref` followed (a `default` beside the ref is kept). */
function property(doc: JsonObject, body: JsonObject, name: Field): JsonObject {
  const written = objectOrEmpty(jsonAt(body, 'properties', name));
  const { $ref: _ref, ...beside } = written;
  return { ...resolveObject(doc, written), ...beside };
}

const strings = (values: Json | undefined) => arrayOrEmpty(values).filter((value): value is string => typeof value === 'string');
const label = (value: string) => value.charAt(0) + value.slice(1).toLowerCase().replaceAll('_', ' ');

function numberInput(doc: JsonObject, body: JsonObject, name: 'duration' | 'peopleCount', text: string, initial: number): string {
  const schema = property(doc, body, name);
  const min = numberOrUndefined(schema.minimum) ?? 1;
  const max = numberOrUndefined(schema.maximum);
  return `<label>${text} <input name="${name}" type="number" required min="${min}"${max === undefined ? '' : ` max="${max}"`} step="1" value="${Math.max(min, initial)}"></label>`;
}

/** The fields of the form (the buttons and the form element are the page's). */
export function renderTripFormFields(doc: JsonObject): string {
  const operation = readOperations(doc).find((candidate) => candidate.operationId === 'createTripPlanSession');
  const body = resolveObject(doc, operation?.body?.schema);
  const themesSchema = property(doc, body, 'themes');
  const themes = resolveObject(doc, jsonAt(themesSchema, 'items'));
  const transportation = property(doc, body, 'transportation');
  const themeBoxes = strings(themes.enum).map(
    (theme, index) =>
      `<label class="choice"><input type="checkbox" name="themes" value="${escapeHtml(theme)}"${index === 0 ? ' checked' : ''}> ${escapeHtml(label(theme))}</label>`,
  );
  const defaultTransportation = stringOrUndefined(transportation.default);
  const transportationOptions = strings(transportation.enum).map(
    (value) => `<option value="${escapeHtml(value)}"${value === defaultTransportation ? ' selected' : ''}>${escapeHtml(label(value))}</option>`,
  );
  return `<label>Region <select name="region" required><option value="">(loading the regions…)</option></select></label>
    <fieldset id="themes" data-min-items="${numberOrUndefined(themesSchema.minItems) ?? 1}" data-max-items="${numberOrUndefined(themesSchema.maxItems) ?? ''}"><legend>Themes</legend>${themeBoxes.join('')}</fieldset>
    <label>Start date <input name="startDate" type="date" required></label>
    ${numberInput(doc, body, 'duration', 'Days', 3)}
    ${numberInput(doc, body, 'peopleCount', 'People', 2)}
    <label>Travelling by <select name="transportation">${transportationOptions.join('')}</select></label>`;
}
