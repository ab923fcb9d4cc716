// The spec model: the one way this project reads OpenAPI 3.1 and AsyncAPI 3 documents. Codegen, the
// conformance runner, spec diff, spec lint, the mock and the docs pages import it from here, never
// from the files beside it.
export { parseYaml, readYaml, fetchYaml, defaultMaxDocumentBytes } from './yamlDocument.js';
export { BodyTooLargeError, readTextWithin } from './boundedText.js';
export { arrayOrEmpty, isJsonObject, jsonAt, jsonText, numberOrUndefined, objectOrEmpty, stringOrUndefined, type Json, type JsonObject } from './json.js';
export { bundle, crossFileRefs } from './bundle.js';
export { loadSpecFolder, specFolderFiles, specFolderLayout, type SpecFolder, type SpecFolderFiles } from './specFolder.js';
export { componentName, pointerTokens, resolveObject, resolveRef, valueAtPointer } from './jsonPointer.js';
export { fillTemplate, mapPlaceholders, placeholderNames, templatePattern } from './template.js';
export { readOperations, serverResponseHeaders, type HttpMethod, type OperationFact, type ParameterFact, type ResponseFact } from './openapiModel.js';
export { creationSortKey, parseSortValue, readPaging, type PagingFact } from './pagingExtension.js';
export { readChannels, readMessages, stompCommands, type AsyncMessageFact, type ChannelFact, type StompCommandName } from './asyncapiModel.js';
export { addSpecFormats, rebaseRefs } from './specAjv.js';
export {
  continuitySignals,
  readDelivery,
  replayStarts,
  runEndOf,
  runOutcomes,
  type ChannelDeliveryFact,
  type ContinuitySignal,
  type DeliveryFacts,
  type DeliveryReading,
  type RunEndFact,
  type RunOutcome,
} from './deliveryModel.js';
