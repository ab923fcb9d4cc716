// The specs as the runner sees them: operations with their documented responses, and response and
// message validators compiled at run time from the documents themselves (as the server under test
// serves them, or as files; never generated code), so the runner judges any server against the
// documents as published. Validation and pattern matching run in the sandbox (sandbox/), so a
// schema of a hostile spec cannot hold the runner past its time bounds.
import {
  arrayOrEmpty,
  bundle,
  jsonAt,
  objectOrEmpty,
  readChannels,
  readDelivery,
  readOperations,
  readYaml,
  resolveObject,
  templatePattern,
  type DeliveryReading,
  type JsonObject,
  type OperationFact,
} from '../specModel/index.js';
import { createSandbox, type SandboxLimits, type SchemaVerdict } from './sandbox/sandbox.js';

/** Checks a value against one schema. */
export type SchemaCheck = (value: unknown) => SchemaVerdict;

export interface SpecIndex {
  openapi: JsonObject;
  asyncapi: JsonObject;
  operations: OperationFact[];
  operation(operationId: string): OperationFact;
  /** the codes of `ErrorCode`: each with its `x-http-status` and whether its `errors` lists the failing fields (`x-field-errors`) */
  errorCodes: ErrorCodeInfo[];
  responseValidator(operationId: string, status: number): SchemaCheck | null;
  schemaValidator(document: 'openapi' | 'asyncapi', schema: unknown): SchemaCheck;
  messageValidator(messageName: string): SchemaCheck;
  /** The header schema of a message (resolved), and a check of headers against it; null when the message declares none. */
  headersOf(messageName: string): { schema: JsonObject; check: SchemaCheck } | null;
  /** `x-delivery`: the delivery guarantees of the channels the server sends on, or why they cannot be read */
  delivery: DeliveryReading;
  /** Whether `text` matches a schema's `pattern` (read as ajv reads it); undefined when that could not be decided in time. */
  matchesPattern: (pattern: string, text: string) => boolean | undefined;
  /** channel name -> address, direction and message names */
  channels: ChannelInfo[];
  /** the channel whose address template matches a concrete destination */
  channelFor(destination: string): ChannelInfo | null;
}

export interface ErrorCodeInfo {
  code: string;
  httpStatus: number | null;
  fieldErrors: boolean;
}

function readErrorCodes(openapi: JsonObject): ErrorCodeInfo[] {
  return arrayOrEmpty(jsonAt(openapi, 'components', 'schemas', 'ErrorCode', 'oneOf'))
    .map(objectOrEmpty)
    .filter((alternative) => typeof alternative.const === 'string')
    .map((alternative) => ({
      code: alternative.const as string,
      httpStatus: typeof alternative['x-http-status'] === 'number' ? alternative['x-http-status'] : null,
      fieldErrors: alternative['x-field-errors'] === true,
    }));
}

export interface ChannelInfo {
  name: string;
  address: string;
  action: 'send' | 'receive';
  messages: string[];
}

/** How long one validation or pattern match may take at most, unless told otherwise: as long as a request. */
export const defaultSandboxLimits: SandboxLimits = { timeoutMs: 10_000 };

/** The index of two spec files (asyncapi.yaml bundled against the files its refs name). */
export function loadSpecIndex(openapiFile: string, asyncapiFile: string, limits: SandboxLimits = defaultSandboxLimits): SpecIndex {
  return createSpecIndex(readYaml(openapiFile), bundle(asyncapiFile), limits);
}

/** The index of two documents; the AsyncAPI one must be self-contained (bundled). */
export function createSpecIndex(openapi: JsonObject, asyncapi: JsonObject, limits: SandboxLimits = defaultSandboxLimits): SpecIndex {
  const operations = readOperations(openapi);
  const sandbox = createSandbox(openapi, asyncapi, limits);
  const compile =
    (document: 'openapi' | 'asyncapi', schema: unknown): SchemaCheck =>
    (value) =>
      sandbox.validate(document, schema, value);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  // Destinations only: the channel of the connection's own frames (CONNECT, RECEIPT, ...) has address null.
  const channelList: ChannelInfo[] = readChannels(asyncapi)
    .filter((channel): channel is typeof channel & { address: string } => channel.address !== null)
    // A channel's direction is the action of the first operation on it (a channel no operation uses is received).
    .map(({ name, address, actions, messages }) => ({ name, address, action: actions[0] ?? 'receive', messages }));
  return {
    openapi,
    asyncapi,
    operations,
    errorCodes: readErrorCodes(openapi),
    operation(operationId) {
      const op = byId.get(operationId);
      if (!op) throw new Error(`operation ${operationId} is not in the spec`);
      return op;
    },
    responseValidator(operationId, status) {
      const response = byId.get(operationId)?.responses.find((r) => r.status === status);
      return response?.schema ? compile('openapi', response.schema) : null;
    },
    schemaValidator: compile,
    messageValidator(messageName) {
      return compile('asyncapi', jsonAt(asyncapi, 'components', 'messages', messageName, 'payload'));
    },
    headersOf(messageName) {
      const headers = resolveObject(asyncapi, jsonAt(asyncapi, 'components', 'messages', messageName)).headers;
      return headers === undefined ? null : { schema: resolveObject(asyncapi, headers), check: compile('asyncapi', headers) };
    },
    delivery: readDelivery(asyncapi),
    matchesPattern: (pattern, text) => sandbox.matches(pattern, 'u', text),
    channels: channelList,
    channelFor(destination) {
      // An address is the spec's text too: two placeholders in one segment backtrack quadratically.
      return channelList.find((c) => sandbox.matches(templatePattern(c.address), '', destination) === true) ?? null;
    },
  };
}
