// How the package's commands start. The package ships its TypeScript as written and runs it through
// tsx (a dependency), scoped to the one import: no build step, no compiled copy to drift from the
// source, and the caller's tsconfig and module loaders are left alone. Node 20.17+ is all it needs.
import { tsImport } from 'tsx/esm/api';

/** Runs a CLI module of the package, given relative to this folder. */
export async function runCli(relativePath) {
  await tsImport(relativePath, { parentURL: import.meta.url, tsconfig: false });
}
