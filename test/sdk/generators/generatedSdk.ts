// A row of the generated-SDK suite (test/sdk/generatedSdks.test.ts): what the suite needs to know
// about one generator. Everything else (the published documents, the typed-operations check, the
// strict compile, the run against the service) is the same for every generator.
import type { PublishedSpecs } from '../publishedSpecs.js';
import type { ProbeTarget } from '../typedOperations.js';

export interface SdkWorkspace {
  specs: PublishedSpecs;
  /** where the SDK is generated, the flow program copied and compiled (to `out/`) */
  dir: string;
}

export interface GeneratedSdk {
  /** the generator, as the suite names it */
  generator: string;
  /** names the scratch directory and, inside it, the workspace */
  label: string;
  /** the flow program written against this SDK's API, a file of test/fixtures/sdk/ */
  scenario: string;
  /** generates the SDK from `openapiFile` into `dir` (which exists); resolves to the warnings the generator reported */
  generate(openapiFile: string, dir: string): Promise<string[]>;
  /** the generated module that holds the types, relative to the workspace */
  typesModule: string;
  /** the type of one probe target, as an expression over the types module imported as `G` */
  typeOf: (target: ProbeTarget) => string;
  /** declares the tests only this generator has, inside its describe, after the common ones */
  moreTests?(workspace: () => SdkWorkspace): void;
}

/** The type probe's import of a generator's types, as `typeOf` expects them. */
export const probeImports = (typesModule: string): string[] => [`import type * as G from '${typesModule}';`];
