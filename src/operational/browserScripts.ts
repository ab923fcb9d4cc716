// The docs pages' browser scripts are TypeScript (type-checked as browser code by
// tsconfig.browser.json), which a browser does not run: `npm run build` compiles them with esbuild
// (tools/build/buildBrowserScripts.ts) into dist/, beside this file's compiled copy. The playground's
// is one file bundled from its modules (playground/) and the client package: a browser loads no bare
// package names, and the page loads nothing from elsewhere. The sign-in scripts stay two modules,
// the landing page's importing the tab's (which Swagger UI's init script imports too). This file only
// names the ends: the build reads it before dist/ is whole. Swagger UI's start is one of the latter.
import path from 'node:path';

/** The playground page's script as written, relative to the repository: the bundle's entry. */
export const playgroundEntry = 'src/operational/playground/playground.ts';

/** The bundle, relative to dist/ (compiled code keeps its place relative to the repository there). */
export const playgroundBundle = 'src/operational/playground/playground.bundle.js';

/** The sign-in scripts' folder, as written (TypeScript) relative to the repository and as compiled relative to dist/. */
export const signInScripts = 'src/operational/signIn';

/** The sign-in modules served under /docs/assets/, by the name they are served and imported with. */
export const signInModules = ['landingSignIn.js', 'tabSignIn.js'] as const;

/** Swagger UI's start, compiled beside the sign-in modules (it imports the tab's), relative to dist/; served as /docs/assets/init.js. */
export const swaggerUiInit = `${signInScripts}/swaggerUiInit.js`;

/**
 * A file the build made, relative to dist/, as this process serves it: in dist/ beside the compiled
 * code; run from the sources (tsx: the tests, `npm run dev`), the one of the repository's last
 * build (test/support/freshBuild.ts builds first when the sources are newer).
 */
export function builtBrowserFile(relative: string, here: string = import.meta.dirname): string {
  const codeRoot = path.resolve(here, '../..');
  return path.join(path.basename(codeRoot) === 'dist' ? codeRoot : path.join(codeRoot, 'dist'), relative);
}
