// Does a generated client type every operation? For each operation of the published openapi.yaml,
// the `data` of its 2xx envelope (or the body of a non-JSON 2xx) and every documented error body
// are looked up in the generated code with the TypeScript checker, through an expression each
// generator's test supplies. An operation is typed when none of these is, or contains, `any`,
// `unknown` or `never` (properties and array items walked), and every error body is the error
// envelope whose `data.code` is the list of codes (string literals, not `string`) admitting every
// code of that response's examples.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { arrayOrEmpty, jsonAt, jsonText, objectOrEmpty, resolveObject, type JsonObject } from '../../conformance/specModel/index.js';
import { clientCompilerOptions } from './strictCompile.js';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
const methods: Method[] = ['get', 'put', 'post', 'delete', 'patch'];

export type ProbeKind = 'data' | 'body' | 'error';

export interface ProbeTarget {
  operationId: string;
  path: string;
  method: Method;
  status: number;
  contentType: string;
  /** data: the `data` of a JSON 2xx envelope; body: a non-JSON 2xx body; error: a whole error body */
  kind: ProbeKind;
  /** how many media types the response documents (some generators name each one's type apart) */
  mediaTypes: number;
}

interface Probe extends ProbeTarget {
  expression: string;
  exampleCodes: string[];
}

/** The number of operations of a document: what `typed.length` must reach. */
export function operationCount(openapi: JsonObject): number {
  return Object.values(objectOrEmpty(openapi.paths)).reduce((sum: number, item) => sum + methods.filter((method) => jsonAt(item, method)).length, 0);
}

export interface TypedOperations {
  total: number;
  typed: string[];
  /** operationId → what is not typed, e.g. `200 data.content[] is unknown` */
  untyped: Record<string, string[]>;
}

function probeTargets(openapi: JsonObject): (ProbeTarget & { exampleCodes: string[] })[] {
  const targets: (ProbeTarget & { exampleCodes: string[] })[] = [];
  for (const [pathKey, item] of Object.entries(objectOrEmpty(openapi.paths))) {
    for (const method of methods) {
      const op = jsonAt(item, method);
      if (!op) continue;
      for (const [statusKey, rawResponse] of Object.entries(objectOrEmpty(jsonAt(op, 'responses')))) {
        const status = Number(statusKey);
        const response = resolveObject(openapi, rawResponse);
        const [contentType, media] = Object.entries(objectOrEmpty(response.content))[0] ?? [];
        if (!contentType) continue; // 204: nothing to type
        const kind: ProbeKind = status >= 400 ? 'error' : contentType === 'application/json' ? 'data' : 'body';
        const exampleCodes = Object.values(objectOrEmpty(jsonAt(media, 'examples')))
          .map((example) => jsonAt(resolveObject(openapi, example).value, 'data', 'code'))
          .filter((code): code is string => typeof code === 'string');
        targets.push({
          operationId: jsonText(jsonAt(op, 'operationId')),
          path: pathKey,
          method,
          status,
          contentType,
          kind,
          mediaTypes: Object.keys(objectOrEmpty(response.content)).length,
          exampleCodes,
        });
      }
    }
  }
  return targets;
}

/**
 * Property names whose schema admits any JSON value (e.g. FieldError.rejectedValue, which echoes
 * whatever was rejected): `unknown` is right there, also for the items of its array form.
 */
function untypedOnPurpose(openapi: JsonObject): Set<string> {
  const constraining = ['type', '$ref', 'enum', 'const', 'oneOf', 'anyOf', 'allOf', 'items', 'properties'];
  const everyJsonType = ['string', 'number', 'boolean', 'null', 'array', 'object'];
  const anyJson = (property: JsonObject) => everyJsonType.every((type) => arrayOrEmpty(property.type).includes(type));
  const names = new Set<string>();
  for (const schema of Object.values(objectOrEmpty(jsonAt(openapi, 'components', 'schemas')))) {
    for (const [name, raw] of Object.entries(objectOrEmpty(jsonAt(schema, 'properties')))) {
      const property = objectOrEmpty(raw);
      if (!constraining.some((keyword) => keyword in property) || anyJson(property)) names.add(name);
    }
  }
  return names;
}

function problemsOf(checker: ts.TypeChecker, root: ts.Type, allowed: Set<string>): string[] {
  const problems: string[] = [];
  const seen = new Set<ts.Type>();
  const walk = (type: ts.Type, at: string, depth: number): void => {
    if (type.flags & ts.TypeFlags.Any) return void problems.push(`${at} is any`);
    if (type.flags & ts.TypeFlags.Unknown) return void problems.push(`${at} is unknown`);
    if (type.flags & ts.TypeFlags.Never) return void problems.push(`${at} is never`);
    if (depth > 12 || seen.has(type)) return;
    seen.add(type);
    if (type.isUnion()) return type.types.forEach((member) => walk(member, at, depth + 1));
    if (checker.isArrayType(type)) return walk(checker.getTypeArguments(type as ts.TypeReference)[0]!, `${at}[]`, depth + 1);
    // `unknown[] & Item[]`: indexing gives Item, but `map` and friends take the first array's
    // signatures, so the callback sees unknown. Every array part must be typed.
    const arrays = type.isIntersection() ? type.types.filter((part) => checker.isArrayType(part)) : [];
    if (arrays.length) return arrays.forEach((part) => walk(part, at, depth + 1));
    if (!(type.flags & ts.TypeFlags.Object) && !type.isIntersection()) return;
    for (const property of checker.getPropertiesOfType(type)) {
      if (allowed.has(property.name)) continue;
      walk(checker.getTypeOfSymbol(property), `${at}.${property.name}`, depth + 1);
    }
  };
  walk(root, '', 0);
  return problems;
}

function codeProblems(checker: ts.TypeChecker, body: ts.Type, exampleCodes: string[]): string[] {
  const data = checker.getPropertyOfType(body, 'data');
  const code = data && checker.getPropertyOfType(checker.getTypeOfSymbol(data), 'code');
  if (!code) return ['has no data.code'];
  const type = checker.getNonNullableType(checker.getTypeOfSymbol(code));
  const members = type.isUnion() ? type.types : [type];
  if (!members.every((member) => member.isStringLiteral())) return [`data.code is ${checker.typeToString(type)}, not the list of error codes`];
  const codes = new Set(members.map((member) => member.value));
  return exampleCodes.filter((c) => !codes.has(c)).map((c) => `data.code does not admit ${c} (an example of this response)`);
}

/**
 * Writes `typeProbe.ts` into `dir` (next to the generated client), with one type alias per probe
 * built by `expressionOf`, and judges every alias. `imports` are the probe file's import lines.
 */
export function checkTypedOperations(
  openapi: JsonObject,
  dir: string,
  imports: string[],
  expressionOf: (target: ProbeTarget) => string,
  overrides: ts.CompilerOptions = {},
): TypedOperations {
  const probes: Probe[] = probeTargets(openapi).map((target) => ({ ...target, expression: expressionOf(target) }));
  const file = path.join(dir, 'typeProbe.ts');
  const lines = [...imports, '', ...probes.map((p, i) => `export type Probe${i} = ${p.expression};`)];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const program = ts.createProgram([file], { ...clientCompilerOptions, ...overrides, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const diagnostics = ts.getPreEmitDiagnostics(program, source);
  const allowed = untypedOnPurpose(openapi);
  const aliases = source.statements.filter(ts.isTypeAliasDeclaration);

  const untyped: Record<string, string[]> = {};
  probes.forEach((probe, i) => {
    const alias = aliases[i]!;
    const where = `${probe.status} ${probe.kind === 'data' ? 'data' : 'body'}`;
    const broken = diagnostics.filter((d) => d.start !== undefined && d.start >= alias.getStart(source) && d.start < alias.getEnd());
    const type = checker.getTypeAtLocation(alias.name);
    const problems = broken.length
      ? broken.map((d) => `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
      : [
          ...problemsOf(checker, type, allowed).map((p) => `${where}${p}`),
          ...(probe.kind === 'error' && !(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never))
            ? codeProblems(checker, type, probe.exampleCodes).map((p) => `${where} ${p}`)
            : []),
        ];
    if (problems.length) (untyped[probe.operationId] ??= []).push(...problems);
  });
  const operationIds = [...new Set(probes.map((p) => p.operationId))];
  return { total: operationIds.length, typed: operationIds.filter((id) => !untyped[id]), untyped };
}
