// The specs as the runner sees them: operations with their documented responses, and response and
// message validators compiled at run time from the spec files themselves (not from generated/),
// so the runner judges any server against the documents as published.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { bundle, readYaml } from '../specModel/bundle.js';
import { readOperations, type OperationFact } from '../specModel/openapiModel.js';
import { templatePattern } from '../specModel/template.js';
import { addSpecFormats, rebaseRefs } from '../specModel/specAjv.js';


export interface SpecIndex {
  openapi: any;
  asyncapi: any;
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

export function loadSpecIndex(openapiFile: string, asyncapiFile: string): SpecIndex {
  const openapi = readYaml(openapiFile);
  const asyncapi = bundle(asyncapiFile);
  const operations = readOperations(openapi);
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addSpecFormats(ajv);
  ajv.addSchema({ $id: 'urn:conformance:openapi', components: { schemas: (openapi as any).components.schemas } } as object);
  ajv.addSchema({ $id: 'urn:conformance:asyncapi', components: { schemas: (asyncapi as any).components.schemas } } as object);
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
  const channelEntries = Object.entries<any>((asyncapi as any).channels ?? {}).filter(([, channel]) => typeof channel.address === 'string');
  const channelList = channelEntries.map(([name, channel]) => {
    const op = Object.values<any>((asyncapi as any).operations ?? {}).find((o) => o.channel?.$ref === `#/channels/${name}`);
    return {
      name,
      address: channel.address as string,
      action: (op?.action ?? 'receive') as 'send' | 'receive',
      messages: Object.values<any>(channel.messages ?? {}).map((m) => String(m.$ref).split('/').pop()!),
    };
  });
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
      const message = (asyncapi as any).components.messages[messageName];
      return compile('asyncapi', message.payload);
    },
    channels: channelList,
    channelFor(destination) {
      return (
        channelList.find((c) => new RegExp(templatePattern(c.address)).test(destination)) ?? null
      );
    },
  };
}
