// Checks every response against the spec with the generated validators: the status must be
// documented for the operation, required headers present, and the body valid. `strict` turns a
// violation into a 500 (and records it, so tests fail), `log` logs it, `off` skips the check.
import type { ValidateFunction } from 'ajv';
import type { ResponseValidationMode } from '../config/config.js';
import type { Logger } from '../kernel/logger.js';
import { serverResponseHeaders, type RouteDefinition } from '../../generated/routes.js';
import { operationValidators } from '../../generated/validators.js';

export interface ResponseViolation {
  operationId: string;
  status: number;
  problems: string[];
}

export interface ResponseChecker {
  mode: ResponseValidationMode;
  /** Violations seen so far (kept in strict mode, for tests to assert on). */
  readonly violations: ResponseViolation[];
  /**
   * Returns the problems of this response; empty when it matches the spec. `contentType` names the
   * media type sent when it is not the response's first documented one (content negotiation).
   */
  check(route: RouteDefinition, status: number, headers: Headers | Record<string, string>, body: unknown, contentType?: string): string[];
}

function formatErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map(
    (e) =>
      `body${e.instancePath} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}${e.params && 'unevaluatedProperty' in e.params ? ` (${String(e.params.unevaluatedProperty)})` : ''}`,
  );
}

export function createResponseChecker(mode: ResponseValidationMode, log: Logger): ResponseChecker {
  const violations: ResponseViolation[] = [];
  return {
    mode,
    violations,
    check(route, status, headers, body, contentType) {
      if (mode === 'off') return [];
      const problems: string[] = [];
      const facts = route.responses[status];
      if (!facts) {
        problems.push(`status ${status} is not documented for ${route.operationId}`);
      } else {
        const has = (name: string) =>
          headers instanceof Headers ? headers.has(name) : Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase());
        // X-Request-Id and the like are added by middleware after this check (see serverResponseHeaders).
        const handlerHeaders = facts.requiredHeaders.filter((header) => !serverResponseHeaders.includes(header));
        for (const header of handlerHeaders) if (!has(header)) problems.push(`required header ${header} is missing`);
        const alternative = contentType !== undefined && contentType !== facts.contentType;
        if (alternative && !facts.otherContentTypes?.includes(contentType)) {
          problems.push(`media type ${contentType} is not documented for ${route.operationId} ${status}`);
        } else if (alternative) {
          // Alternatives are text representations (codegen allows text/* only); the validator below is the first media type's.
          if (typeof body !== 'string') problems.push(`body of ${contentType} must be text`);
        } else {
          const validate = operationValidators[route.operationId].responses[status];
          if (validate && !validate(body)) problems.push(...formatErrors(validate));
        }
      }
      if (problems.length > 0) {
        violations.push({ operationId: route.operationId, status, problems });
        log.error({ operationId: route.operationId, status, problems }, 'response does not match the spec');
      }
      return mode === 'strict' ? problems : [];
    },
  };
}
