// A request's logger without the cost of one when it does not write: pino's child() serialises its
// bindings at once, for every request, even when the level (warn in production) drops everything
// the request would log. This stands in for the child: a call at a disabled level is the parent's
// no-op, and the child is made on the first use that can write (or that needs the child itself).
import type { Logger } from './logger.js';

const levelMethods = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

export function lazyChildLogger(parent: Logger, bindings: () => Record<string, unknown>): Logger {
  let child: Logger | null = null;
  const made = (): Logger => (child ??= parent.child(bindings()));
  return new Proxy(parent, {
    get(target, property, receiver) {
      if (child === null && typeof property === 'string' && levelMethods.has(property) && !target.isLevelEnabled(property)) {
        return Reflect.get(target, property, receiver) as unknown;
      }
      const value = Reflect.get(made(), property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(made()) : value;
    },
  });
}
