// `NODE_OPTIONS=--import tsx --import <this file>`: appends the URL of every module the process resolves whose
// path has RECORD_PACKAGE_LOADS_MATCH in it to the file RECORD_PACKAGE_LOADS_FILE (what a process
// loaded, for tests that say what it must not load).
import { register } from 'node:module';

register('./recordPackageLoadsHooks.ts', import.meta.url, {
  data: { file: process.env.RECORD_PACKAGE_LOADS_FILE, match: process.env.RECORD_PACKAGE_LOADS_MATCH },
});
