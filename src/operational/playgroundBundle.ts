// The playground page's script is one file bundled from its modules (playground/) and the client
// package: a browser loads neither TypeScript nor bare package names, and the page loads nothing
// from elsewhere. `npm run build` makes it (tools/build/bundlePlayground.ts, esbuild) in dist/,
// beside this file's compiled copy. This file only names the two ends: the build reads it before
// dist/ is whole.
import path from 'node:path';

/** The page's script as written, relative to the repository: the bundle's entry. */
export const playgroundEntry = 'src/operational/playground/playground.js';

/** The bundle, relative to dist/ (compiled code keeps its place relative to the repository there). */
export const playgroundBundle = 'src/operational/playground/playground.bundle.js';

/**
 * The bundle this process serves: in dist/ beside the compiled code; run from the sources (tsx:
 * the tests, `npm run dev`), the one of the repository's last build (test/support/freshBuild.ts
 * builds first when the sources are newer).
 */
export function playgroundBundleFile(here: string = import.meta.dirname): string {
  const codeRoot = path.resolve(here, '../..');
  return path.join(path.basename(codeRoot) === 'dist' ? codeRoot : path.join(codeRoot, 'dist'), playgroundBundle);
}
