// The specs as the runner sees them: operations with their documented responses, and response and
// message validators compiled at run time from the documents themselves (as the server under test
// serves them, or as files; never generated code), so the runner judges any server against the
// documents as published.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  addSpecFormats,
  bundle,
  jsonAt,
  readChannels,
  readOperations,
  readYaml,
  rebaseRefs,
  templatePattern,
  type JsonObject,
  type OperationFact,
} from '../specModel/index.js';

export interface SpecIndex {
  openapi: JsonObject;
  asyncapi: JsonObject;
  operations: OperationFact[];
  operation(operationId: string): OperationFact;
  responseValidator(operationId: string, status: number): ValidateFunction | null;
  schemaValidator(document: 'openapi' | 'asyncapi', schema: unknown): ValidateFunction;
  messageValidator(messageName: string): ValidateFunction;
  /** channel name -> address, direction and message names */
  channels: ChannelInfo[];
  /** the channel whose address template matches a concrete destination */
  channelFor(destination: string): ChannelInfo | null;
}

export interface ChannelInfo {
  name: string;
  address: string;
  action: 'send' | 'receive';
  messages: string[];
}

/** The index of two spec files (asyncapi.yaml bundled against the files its refs name). */
export function loadSpecIndex(openapiFile: string, asyncapiFile: string): SpecIndex {
  return createSpecIndex(readYaml(openapiFile), bundle(asyncapiFile));
}

/** The index of two documents; the AsyncAPI one must be self-contained (bundled). */
export function createSpecIndex(openapi: JsonObject, asyncapi: JsonObject): SpecIndex {
  const operations = readOperations(openapi);
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addSpecFormats(ajv);
  ajv.addSchema({ $id: 'urn:conformance:openapi', components: { schemas: jsonAt(openapi, 'components', 'schemas') } });
  ajv.addSchema({ $id: 'urn:conformance:asyncapi', components: { schemas: jsonAt(asyncapi, 'components', 'schemas') } });
  const cache = new Map<unknown, ValidateFunction>();
  const compile = (document: 'openapi' | 'asyncapi', schema: unknown) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(rebaseRefs(schema, `urn:conformance:${document}`) as object);
      cache.set(schema, validate);
    }
    return validate;
  };
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
    channels: channelList,
    channelFor(destination) {
      return channelList.find((c) => new RegExp(templatePattern(c.address)).test(destination)) ?? null;
    },
  };
}
