// Servers are where clients connect, so what breaks there breaks every operation at once: a server
// removed, or an existing one moved to another host, path or protocol, leaves clients configured
// for the old address talking to nothing. A new server is only another place to connect.
import type { Report } from './change.js';
import { diffBindings } from './bindingsDiff.js';
import { show } from './findings.js';
import { arrayOrEmpty, jsonText, objectOrEmpty, resolveObject, stringOrUndefined, type Json, type JsonObject } from '../specModel/index.js';

/** How a client would write the server's address, for messages. */
const addressOf = (server: JsonObject): string =>
  `${jsonText(server.protocol ?? '?')}://${jsonText(server.host ?? '?')}${stringOrUndefined(server.pathname) ?? ''}`;

// Variables fill the placeholders of a host or URL: a value clients may no longer choose breaks
// those that chose it; a new default is a warning, since clients taking the default now reach
// another server.
function diffVariables(where: string, before: Json | undefined, after: Json | undefined, report: Report): void {
  const [oldVars, newVars] = [objectOrEmpty(before), objectOrEmpty(after)];
  for (const [name, raw] of Object.entries(oldVars)) {
    if (!(name in newVars)) continue; // then the template changed too, which is reported with it
    const [old, neu] = [objectOrEmpty(raw), objectOrEmpty(newVars[name])];
    const at = `${where} variable ${name}`;
    const [oldEnum, newEnum] = [Array.isArray(old.enum) ? old.enum : null, Array.isArray(neu.enum) ? neu.enum : null];
    const removed = newEnum ? (oldEnum ?? []).filter((v) => !newEnum.some((w) => show(w) === show(v))) : [];
    if (newEnum && !oldEnum) report('breaking', 'server-variable-restricted', at, `now one of ${show(newEnum)}; clients using another value cannot connect`);
    if (removed.length > 0)
      report('breaking', 'server-variable-value-removed', at, `${removed.map(show).join(', ')} no longer allowed; clients using it cannot connect`);
    if (show(old.default) !== show(neu.default)) {
      report(
        'warning',
        'server-variable-default-changed',
        at,
        `default ${show(old.default) ?? 'none'} → ${show(neu.default) ?? 'none'}; clients taking the default now reach another server`,
      );
    }
  }
}

function diffAsyncapiServer(oldDoc: JsonObject, newDoc: JsonObject, key: string, old: JsonObject, neu: JsonObject, report: Report): void {
  const where = `server ${key}`;
  const text = (value: Json | undefined) => (value === undefined ? 'none' : jsonText(value));
  const moved = (field: string, rule: string, why: string) => {
    if (show(old[field]) !== show(neu[field])) report('breaking', rule, where, `${field} ${text(old[field])} → ${text(neu[field])}; ${why}`);
  };
  moved('host', 'server-host-changed', 'clients connect to the old host');
  moved('pathname', 'server-pathname-changed', 'clients connect to the old endpoint');
  moved('protocol', 'server-protocol-changed', 'clients speak the old protocol');
  // Servers often accept several versions of their protocol (STOMP negotiates one at CONNECT), so
  // a new version need not lock old clients out; only a person can tell.
  if (show(old.protocolVersion) !== show(neu.protocolVersion)) {
    const version = text(old.protocolVersion);
    report(
      'warning',
      'server-protocol-version-changed',
      where,
      `protocolVersion ${version} → ${text(neu.protocolVersion)}; clients speaking only ${version} fail to connect unless the server still accepts it`,
    );
  }
  diffVariables(where, old.variables, neu.variables, report);
  diffBindings({ oldSpec: oldDoc, newSpec: newDoc, owner: 'server', where, report }, old.bindings, neu.bindings);
}

/** AsyncAPI servers, matched by key, or by address when only the key was renamed (invisible to clients). */
export function diffAsyncapiServers(oldDoc: JsonObject, newDoc: JsonObject, report: Report): void {
  const read = (doc: JsonObject) => new Map(Object.entries(objectOrEmpty(doc.servers)).map(([key, raw]) => [key, resolveObject(doc, raw)]));
  const [oldServers, newServers] = [read(oldDoc), read(newDoc)];
  const matched = new Set<string>();
  for (const [key, old] of oldServers) {
    const nextKey = newServers.has(key) ? key : [...newServers.keys()].find((k) => !oldServers.has(k) && addressOf(newServers.get(k)!) === addressOf(old));
    if (nextKey === undefined) {
      report('breaking', 'server-removed', `server ${key}`, `server removed; clients configured for ${addressOf(old)} cannot connect`);
      continue;
    }
    matched.add(nextKey);
    diffAsyncapiServer(oldDoc, newDoc, key, old, newServers.get(nextKey)!, report);
  }
  for (const [key, server] of newServers) if (!matched.has(key)) report('non-breaking', 'server-added', `server ${key}`, `new server ${addressOf(server)}`);
}

// An OpenAPI server URL, split where a change means something different: the origin (scheme, host,
// port) and the base path every operation's path is appended to.
function splitUrl(url: string): { origin: string; path: string } {
  const match = /^((?:[^:/?#]+:)?(?:\/\/[^/?#]*)?)([^?#]*)/.exec(url)!;
  return { origin: match[1]!, path: match[2]!.replace(/\/+$/, '') || '/' };
}

/** OpenAPI servers have no keys: an unchanged URL is the same server, the others are paired in order. */
export function diffOpenapiServers(oldDoc: JsonObject, newDoc: JsonObject, report: Report): void {
  // No servers means one, at `/` of wherever the document was served from (OpenAPI 3).
  const read = (doc: JsonObject) => {
    const servers = arrayOrEmpty(doc.servers).map((s) => objectOrEmpty(s));
    return servers.length > 0 ? servers : [{ url: '/' }];
  };
  const urlOf = (server: JsonObject) => jsonText(server.url ?? '/');
  const [oldServers, newServers] = [read(oldDoc), read(newDoc)];
  const unmatchedNew = newServers.filter((s) => !oldServers.some((o) => urlOf(o) === urlOf(s)));
  for (const old of oldServers) {
    const where = `server ${urlOf(old)}`;
    const next = newServers.find((s) => urlOf(s) === urlOf(old)) ?? unmatchedNew.shift();
    if (!next) {
      report('breaking', 'server-removed', where, `server removed; clients calling ${urlOf(old)} reach nothing`);
      continue;
    }
    const [before, after] = [splitUrl(urlOf(old)), splitUrl(urlOf(next))];
    if (before.path !== after.path) {
      report('breaking', 'server-base-path-changed', where, `base path ${before.path} → ${after.path}; every operation moved, clients call the old URLs`);
    }
    const host = (origin: string) => origin || '(the host serving the document)';
    if (before.origin !== after.origin) {
      // A relative URL means "wherever the document is served": a client may well have been calling
      // the host the new URL names, so only a move between two named hosts is sure to break.
      const named = before.origin !== '' && after.origin !== '';
      const why = named
        ? 'clients call the old host'
        : 'one side is relative to the host serving the document, so whether clients called this host cannot be told';
      report(named ? 'breaking' : 'warning', 'server-host-changed', where, `${host(before.origin)} → ${host(after.origin)}; ${why}`);
    }
    diffVariables(where, old.variables, next.variables, report);
  }
  for (const server of unmatchedNew) report('non-breaking', 'server-added', `server ${urlOf(server)}`, 'new server');
}
