// Protocol bindings (AsyncAPI `bindings` of a server or a channel) are settings of one protocol:
// the WebSocket handshake's headers and query, an MQTT keep-alive, a Kafka schema registry. The
// checker knows the shape of a setting, not what each protocol makes of it, so it judges by shape:
// - a JSON schema (ws `headers`, `query`) describes what clients send to connect or subscribe, and
//   is compared like a request body: a new required header breaks clients, a removed one does not;
// - any other setting that appears or changes is a warning: whether clients must follow it depends
//   on the binding's definition, so a person has to look; one that disappears asks nothing of
//   clients any more and is not breaking;
// - bindingVersion is the version of the binding's own definition, not of anything on the wire.
import type { Report } from './change.js';
import { show } from './findings.js';
import { diffSchema } from './schemaDiff.js';
import { isJsonObject, resolveObject, type Json, type JsonObject } from '../specModel/index.js';

const SCHEMA_KEYWORDS = ['type', 'properties', 'required', '$ref', 'allOf', 'oneOf', 'anyOf', 'enum', 'const'];
const isSchema = (value: Json | undefined): boolean => isJsonObject(value) && SCHEMA_KEYWORDS.some((k) => k in value);
// A schema one side lacks constrains nothing, but keep the other side's type so that only its
// fields are compared (headers are an object whether or not they are documented).
const absentSchema = (other: Json | undefined): JsonObject => (isJsonObject(other) && other.type !== undefined ? { type: other.type } : {});

export interface BindingsContext {
  oldSpec: JsonObject;
  newSpec: JsonObject;
  owner: 'server' | 'channel'; // names the rules: server-binding-changed, channel-binding-changed
  where: string; // e.g. "server stomp"
  report: Report;
}

export function diffBindings(ctx: BindingsContext, oldBindings: Json | undefined, newBindings: Json | undefined): void {
  const [before, after] = [resolveObject(ctx.oldSpec, oldBindings), resolveObject(ctx.newSpec, newBindings)];
  for (const protocol of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [oldFields, newFields] = [resolveObject(ctx.oldSpec, before[protocol]), resolveObject(ctx.newSpec, after[protocol])];
    for (const field of new Set([...Object.keys(oldFields), ...Object.keys(newFields)])) {
      diffField(ctx, protocol, field, oldFields[field], newFields[field]);
    }
  }
}

function diffField(ctx: BindingsContext, protocol: string, field: string, before: Json | undefined, after: Json | undefined): void {
  const { owner, report } = ctx;
  const at = `${ctx.where} binding ${protocol}.${field}`;
  if (show(before) === show(after)) return;
  if (isSchema(before) || isSchema(after)) {
    const context = { oldSpec: ctx.oldSpec, newSpec: ctx.newSpec, direction: 'request' as const, where: at, report };
    diffSchema(context, before ?? absentSchema(after), after ?? absentSchema(before));
    return;
  }
  if (field === 'bindingVersion') {
    report(
      'non-breaking',
      `${owner}-binding-version-changed`,
      at,
      `${show(before) ?? 'none'} → ${show(after) ?? 'none'}; the version of the binding's definition`,
    );
    return;
  }
  const check = `whether clients must follow this setting depends on the ${protocol} binding: check it`;
  if (after === undefined) report('non-breaking', `${owner}-binding-removed`, at, `setting ${show(before)} removed; the server no longer asks it of clients`);
  else if (before === undefined) report('warning', `${owner}-binding-added`, at, `new setting ${show(after)}; ${check}`);
  else report('warning', `${owner}-binding-changed`, at, `${show(before)} → ${show(after)}; ${check}`);
}
