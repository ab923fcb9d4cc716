// The `error-code` header of asyncapi.yaml's ERROR frame references the one list of codes
// (`ErrorCode` of openapi.yaml) and narrows it with a `pattern` instead of listing the codes again.
// This refuses a spec where that pattern and the codes marked `x-stomp: [error-frame]` disagree, so
// the published header schema is exactly the codes the server may put there.
import { arrayOrEmpty, jsonAt, objectOrEmpty, resolveObject, type AsyncMessageFact, type JsonObject } from '../conformance/specModel/index.js';
import type { ErrorCodeFact } from './errorCodeModel.js';

export function checkErrorFrameCodes(asyncapi: JsonObject, messages: AsyncMessageFact[], codes: ErrorCodeFact[]): void {
  const errorMessages = messages.filter((m) => m.stompCommand === 'ERROR');
  if (errorMessages.length !== 1 || !errorMessages[0]!.headers)
    throw new Error('asyncapi.yaml: exactly one message must document the ERROR frame, with its headers');
  const header = objectOrEmpty(jsonAt(resolveObject(asyncapi, errorMessages[0]!.headers).properties, 'error-code'));
  const refersToList = arrayOrEmpty(header.allOf).some((part) => jsonAt(part, '$ref') === '#/components/schemas/ErrorCode');
  if (!refersToList || typeof header.pattern !== 'string') {
    throw new Error(`asyncapi.yaml ${errorMessages[0]!.name}: the error-code header must be allOf [ErrorCode of openapi.yaml] narrowed by a pattern`);
  }
  const pattern = new RegExp(header.pattern);
  const selected = codes.filter((c) => pattern.test(c.code)).map((c) => c.code);
  const frameCodes = codes.filter((c) => c.stomp.includes('error-frame')).map((c) => c.code);
  if (selected.join() !== frameCodes.join()) {
    throw new Error(
      `asyncapi.yaml: the error-code pattern ${header.pattern} selects ${selected.join(', ')} but the codes with x-stomp error-frame are ` +
        `${frameCodes.join(', ')}; change the pattern or the codes so that they agree`,
    );
  }
}
