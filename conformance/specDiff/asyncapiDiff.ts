// Compares two bundled AsyncAPI 3 documents: channels, operations, and the payload and headers of
// every message. What a client does on a channel (its operations' `action`, written from the
// client's side) decides the direction: `send` is judged like a request, `receive` like a response.
import { arrayOrEmpty, jsonAt, jsonText, objectOrEmpty, resolveObject, stringOrUndefined, type Json, type JsonObject } from '../specModel/index.js';
import { collector, type Api, type Change, type Direction, type Report } from './change.js';
import { diffSchema } from './schemaDiff.js';
import { diffBindings } from './bindingsDiff.js';
import { diffSchemaNames } from './schemaNamesDiff.js';
import { diffAsyncapiServers } from './serversDiff.js';

type Action = 'send' | 'receive';

interface ChannelView {
  key: string;
  address: string;
  messages: Map<string, JsonObject>; // channel message key -> resolved message
  bindings: Json | undefined;
  actions: Set<Action>;
  /** per message key, what clients do with it: the actions of the operations (and replies) naming it */
  messageActions: Map<string, Set<Action>>;
}

interface OperationView {
  id: string;
  action: Action;
  channel: string; // channel key
}

const channelKey = (ref: Json | undefined): string => jsonText(ref ?? '').replace(/^#\/channels\//, '');
// The AsyncAPI parser checks that an operation's action is send or receive.
const actionOf = (op: JsonObject): Action => op.action as Action;
const directionOf = (action: Action): Direction => (action === 'send' ? 'request' : 'response');

function readChannelViews(doc: JsonObject): Map<string, ChannelView> {
  const channels = new Map<string, ChannelView>();
  for (const [key, raw] of Object.entries(objectOrEmpty(doc.channels))) {
    const channel = resolveObject(doc, raw);
    const messages = new Map(Object.entries(objectOrEmpty(channel.messages)).map(([name, m]) => [name, resolveObject(doc, m)]));
    // A channel that is not a destination (address null: the STOMP connection's own frames) is keyed by name.
    channels.set(key, {
      key,
      address: channel.address === null || channel.address === undefined ? `(${key})` : jsonText(channel.address),
      messages,
      bindings: channel.bindings,
      actions: new Set(),
      messageActions: new Map(),
    });
  }
  // An operation that lists no messages uses every message of its channel (AsyncAPI 3).
  const note = (channel: ChannelView | undefined, action: Action, refs: Json | undefined) => {
    if (!channel) return;
    channel.actions.add(action);
    const keys = refs ? arrayOrEmpty(refs).map((m) => (stringOrUndefined(jsonAt(m, '$ref')) ?? '').split('/').pop()!) : [...channel.messages.keys()];
    for (const key of keys) channel.messageActions.set(key, (channel.messageActions.get(key) ?? new Set()).add(action));
  };
  for (const raw of Object.values(objectOrEmpty(doc.operations))) {
    const op = resolveObject(doc, raw);
    const action = actionOf(op);
    note(channels.get(channelKey(jsonAt(op.channel, '$ref'))), action, op.messages);
    // A reply travels the other way: the client that sends gets the reply.
    const reply = objectOrEmpty(op.reply);
    if (reply.channel) note(channels.get(channelKey(jsonAt(reply.channel, '$ref'))), action === 'send' ? 'receive' : 'send', reply.messages);
  }
  return channels;
}

function readOperationViews(doc: JsonObject): Map<string, OperationView> {
  return new Map(
    Object.entries(objectOrEmpty(doc.operations)).map(([id, raw]) => {
      const op = resolveObject(doc, raw);
      return [id, { id, action: actionOf(op), channel: channelKey(jsonAt(op.channel, '$ref')) }];
    }),
  );
}

// Trait headers apply to the message as if written on it.
function headersOf(doc: JsonObject, message: JsonObject): Json | undefined {
  const parts = [message.headers, ...arrayOrEmpty(message.traits).map((t) => resolveObject(doc, t).headers)].filter((part): part is Json => Boolean(part));
  return parts.length === 0 ? undefined : { allOf: parts };
}

export function diffAsyncapi(oldDoc: JsonObject, newDoc: JsonObject, api: Api = 'asyncapi'): Change[] {
  const { changes, report } = collector(api);
  diffAsyncapiServers(oldDoc, newDoc, report);
  const oldChannels = readChannelViews(oldDoc);
  const newChannels = readChannelViews(newDoc);
  const addresses = new Map([...newChannels.values()].map((c) => [c.address, c]));
  const matched = new Set<string>();
  for (const old of oldChannels.values()) {
    // A renamed channel key with the same address is invisible on the wire.
    const next = newChannels.get(old.key) ?? addresses.get(old.address);
    const where = `channel ${old.key} ${old.address}`;
    if (!next) {
      report('breaking', 'channel-removed', where, 'channel removed; clients using it get errors or silence');
      continue;
    }
    matched.add(next.key);
    if (next.address !== old.address)
      report('breaking', 'channel-address-changed', where, `address ${old.address} → ${next.address}; clients use the old destination`);
    diffChannel(oldDoc, newDoc, old, next, report);
    diffBindings({ oldSpec: oldDoc, newSpec: newDoc, owner: 'channel', where: `channel ${next.key} ${next.address}`, report }, old.bindings, next.bindings);
  }
  for (const next of newChannels.values()) {
    if (!matched.has(next.key)) report('non-breaking', 'channel-added', `channel ${next.key} ${next.address}`, 'new channel');
  }
  diffOperations(oldDoc, newDoc, oldChannels, newChannels, report);
  diffSchemaNames(oldDoc, newDoc, report);
  return changes;
}

function diffOperations(
  oldDoc: JsonObject,
  newDoc: JsonObject,
  oldChannels: Map<string, ChannelView>,
  newChannels: Map<string, ChannelView>,
  report: Report,
): void {
  const oldOps = readOperationViews(oldDoc);
  const newOps = readOperationViews(newDoc);
  for (const old of oldOps.values()) {
    const where = `operation ${old.id} (${old.action} on ${old.channel})`;
    const next = newOps.get(old.id);
    if (!next) {
      report('breaking', 'operation-removed', where, 'operation removed; clients relying on it break');
      continue;
    }
    if (next.action !== old.action) report('breaking', 'operation-action-changed', where, `action ${old.action} → ${next.action}`);
    const before = oldChannels.get(old.channel)?.address;
    const after = newChannels.get(next.channel)?.address;
    if (before !== after) report('breaking', 'operation-channel-changed', where, `channel ${before} → ${after}; clients use the old destination`);
  }
  for (const next of newOps.values()) {
    if (!oldOps.has(next.id)) report('non-breaking', 'operation-added', `operation ${next.id} (${next.action} on ${next.channel})`, 'new operation');
  }
}

function diffChannel(oldDoc: JsonObject, newDoc: JsonObject, old: ChannelView, next: ChannelView, report: Report): void {
  const known = new Set([...old.actions, ...next.actions]);
  // A channel no operation uses has no side yet: judge it both ways, the strictest reading.
  const actions: Action[] = known.size > 0 ? [...known] : ['send', 'receive'];
  // A message is judged in the directions operations use it in (CONNECT is sent, ERROR received on
  // the same channel); one no operation names falls back to the channel's.
  const usedIn = (name: string, action: Action): boolean => {
    const own = new Set([...(old.messageActions.get(name) ?? []), ...(next.messageActions.get(name) ?? [])]);
    return own.size === 0 || own.has(action);
  };
  for (const action of actions) {
    const where = `channel ${next.key} ${next.address} ${action}`;
    const direction = directionOf(action);
    for (const [name, message] of old.messages) {
      if (!usedIn(name, action)) continue;
      const replacement = next.messages.get(name);
      if (!replacement) {
        const why = action === 'send' ? 'clients sending it are rejected' : 'clients handling it never get it';
        report('breaking', 'message-removed', `${where} ${name}`, `message removed; ${why}`);
        continue;
      }
      const before = message.contentType ?? oldDoc.defaultContentType;
      const after = replacement.contentType ?? newDoc.defaultContentType;
      if (before !== after) report('breaking', 'message-content-type-changed', `${where} ${name}`, `content type ${jsonText(before)} → ${jsonText(after)}`);
      const context = (part: string) => ({ oldSpec: oldDoc, newSpec: newDoc, direction, where: `${where} ${name} ${part}`, report });
      diffSchema(context('payload'), message.payload ?? {}, replacement.payload ?? {});
      const [oldHeaders, newHeaders] = [headersOf(oldDoc, message), headersOf(newDoc, replacement)];
      if (oldHeaders || newHeaders) diffSchema(context('headers'), oldHeaders ?? {}, newHeaders ?? {});
    }
    for (const name of next.messages.keys()) {
      if (old.messages.has(name) || !usedIn(name, action)) continue;
      const note = action === 'send' ? 'clients may send it' : 'clients must ignore message types they do not know';
      report('non-breaking', 'message-added', `${where} ${name}`, `new message; ${note}`);
    }
  }
}
