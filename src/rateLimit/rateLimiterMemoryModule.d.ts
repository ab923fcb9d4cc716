// Types of rate-limiter-flexible's memory limiter, imported by its own file (rateLimitStore.memory.ts):
// the package's types describe its index.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import { RateLimiterMemory } from 'rate-limiter-flexible';
  export default RateLimiterMemory;
}
