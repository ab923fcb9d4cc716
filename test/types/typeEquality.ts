// Exact type equality for compile-time tests: true only when A and B are the same type, modifiers
// (optional, readonly) included; `A extends B` alone would accept a subtype, and any `any` matches.
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The keys whose types differ between A and B, or that only one of them has. */
export type DifferingKeys<A, B> = {
  [K in keyof A | keyof B]: K extends keyof A ? (K extends keyof B ? (Equal<A[K], B[K]> extends true ? never : K) : K) : K;
}[keyof A | keyof B];

/** Compiles only when T is never; the error message shows T, i.e. what is wrong. */
export type ExpectNone<T extends never> = T;
