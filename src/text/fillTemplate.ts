// The `{name}` placeholders of the specs' templates (OpenAPI paths, AsyncAPI channel addresses) are
// read and filled in one place, the spec model of the conformance package; the server uses the
// same functions, so a path is never filled or parsed by a hand-written pattern.
export { fillTemplate, mapPlaceholders, placeholderNames } from '../../conformance/specModel/index.js';
