// The spec lint's rules for `x-delivery` (docs/realtime.md, "Delivery guarantees as data"), beyond
// its shape (specModel/deliveryModel.ts): every channel the server sends on carries it and no other
// channel does; the operations it names are operations of openapi.yaml; a run's end is a message of
// its channel whose payload can carry the values `when` names; and the headers it names are headers
// of the frames that carry them (MESSAGE, SUBSCRIBE, RECEIPT, ERROR), with the values it names.
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  addSpecFormats,
  isJsonObject,
  jsonAt,
  readChannels,
  readDelivery,
  readMessages,
  readOperations,
  rebaseRefs,
  resolveObject,
  type DeliveryFacts,
  type Json,
  type JsonObject,
} from '../specModel/index.js';

const ROOT = 'urn:trip-spec-lint:asyncapi';

/** Checks values against schemas of the (bundled) document. */
function schemaChecker(asyncapi: JsonObject): (schema: Json, value: Json) => boolean {
  const ajv = addSpecFormats(new Ajv2020({ strict: false, allowUnionTypes: true }));
  ajv.addSchema({ $id: ROOT, components: { schemas: jsonAt(asyncapi, 'components', 'schemas') ?? {} } });
  return (schema, value) => ajv.validate(rebaseRefs(schema, ROOT) as object, value);
}

/** The schemas a payload gives `property`, through $refs and every branch of oneOf, anyOf and allOf. */
function propertySchemas(doc: JsonObject, schema: Json | undefined, property: string, seen = new Set<Json>()): Json[] {
  const node = resolveObject(doc, schema);
  if (seen.has(node)) return [];
  seen.add(node);
  const own = isJsonObject(node.properties) && node.properties[property] !== undefined ? [node.properties[property]] : [];
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((key) => (Array.isArray(node[key]) ? node[key] : []));
  return [...own, ...branches.flatMap((branch) => propertySchemas(doc, branch, property, seen))];
}

/** The header schema of every message carried by `command`. */
const headerSchemasOf = (asyncapi: JsonObject, command: string): JsonObject[] =>
  readMessages(asyncapi)
    .filter((m) => m.stompCommand === command)
    .map((m) => resolveObject(asyncapi, m.headers));

function headerProblems(asyncapi: JsonObject, facts: DeliveryFacts, accepts: (schema: Json, value: Json) => boolean): string[] {
  const problems: string[] = [];
  const where = 'components.x-delivery';
  const { epochHeader, offsetHeader } = facts.position;
  for (const name of Object.keys(facts.channels)) {
    for (const key of Object.keys(objectAt(asyncapi, 'channels', name, 'messages'))) {
      const message = resolveObject(asyncapi, jsonAt(asyncapi, 'channels', name, 'messages', key));
      const required = resolveObject(asyncapi, message.headers).required;
      for (const header of [epochHeader, offsetHeader]) {
        if (!Array.isArray(required) || !required.includes(header))
          problems.push(`${where}.position: message ${key} of channel ${name} does not require the header ${header}`);
      }
    }
  }
  const named = (command: string, header: string, what: string, value?: string) => {
    const schemas = headerSchemasOf(asyncapi, command).map((s) => jsonAt(s, 'properties', header));
    if (!schemas.some((s) => s !== undefined)) problems.push(`${where}.${what}: no ${command} frame declares the header ${header}`);
    else if (value !== undefined && !schemas.some((s) => s !== undefined && accepts(s, value)))
      problems.push(`${where}.${what}: the ${command} header ${header} does not accept ${JSON.stringify(value)}`);
  };
  named('SUBSCRIBE', facts.replay.all.header, 'replay.all', facts.replay.all.value);
  named('SUBSCRIBE', facts.replay.since.header, 'replay.since');
  named('RECEIPT', facts.replay.recoveredHeader, 'replay.recoveredHeader');
  named('ERROR', 'error-code', 'continuity.errorCode', facts.continuity.errorCode);
  return problems;
}

const objectAt = (doc: JsonObject, ...path: string[]): JsonObject => {
  const node = jsonAt(doc, ...path);
  return isJsonObject(node) ? node : {};
};

function runEndProblems(asyncapi: JsonObject, facts: DeliveryFacts, accepts: (schema: Json, value: Json) => boolean): string[] {
  const problems: string[] = [];
  for (const [name, channel] of Object.entries(facts.channels)) {
    channel.endsRun.forEach((end, i) => {
      const payload = resolveObject(asyncapi, jsonAt(asyncapi, 'channels', name, 'messages', end.message)).payload;
      for (const [property, value] of Object.entries(end.when)) {
        const where = `channels.${name}.x-delivery.endsRun[${i}].when.${property}`;
        const schemas = propertySchemas(asyncapi, payload, property);
        if (schemas.length === 0) problems.push(`${where}: the payload of ${end.message} has no property ${property}`);
        else if (!schemas.some((schema) => accepts(schema, value)))
          problems.push(`${where}: ${end.message} cannot carry ${JSON.stringify(value)} in ${property}`);
      }
    });
  }
  return problems;
}

/** Every way the `x-delivery` of `asyncapi` (bundled) breaks the rules above; empty when it keeps them. */
export function deliveryProblems(asyncapi: JsonObject, openapi: JsonObject): string[] {
  const reading = readDelivery(asyncapi);
  if (!reading.facts) return reading.problems;
  const facts = reading.facts;
  const problems: string[] = [];
  for (const channel of readChannels(asyncapi)) {
    // The connection's own frames (a channel without an address) are not a destination anyone subscribes to.
    const sentByServer = channel.address !== null && channel.actions.includes('receive');
    const declared = facts.channels[channel.name] !== undefined;
    if (sentByServer && !declared) problems.push(`channels.${channel.name}: the server sends on it, but it has no x-delivery`);
    if (!sentByServer && declared) problems.push(`channels.${channel.name}: has x-delivery, but the server does not send on it`);
  }
  const operationIds = new Set(readOperations(openapi).map((op) => op.operationId));
  const operations = [
    ...Object.entries(facts.logs).flatMap(([name, log]) => log.rebuildWith.map((id) => [`logs.${name}.rebuildWith`, id] as const)),
    ...facts.runs.startedBy.map((id) => ['runs.startedBy', id] as const),
  ];
  for (const [where, id] of operations) {
    if (!operationIds.has(id)) problems.push(`components.x-delivery.${where}: ${id} is not an operationId of openapi.yaml`);
  }
  const accepts = schemaChecker(asyncapi);
  return [...problems, ...runEndProblems(asyncapi, facts, accepts), ...headerProblems(asyncapi, facts, accepts)];
}
