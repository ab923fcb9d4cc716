// The docs pages' browser scripts, compiled from TypeScript by esbuild for the browser (ES2022
// modules) into dist/, where the server serves them from (src/operational/browserScripts.ts names
// both ends). The playground's script is bundled with the client package and minified; the sign-in
// modules and Swagger UI's start are compiled one by one, so both still import ./tabSignIn.js. esbuild only strips the types: tsconfig.browser.json
// (`npm run typecheck`) checks them; it is also what resolves the client package by its name to its sources.
import path from 'node:path';
import { build } from 'esbuild';
import { playgroundBundle, playgroundEntry, signInModules, signInScripts, swaggerUiInit } from '../../src/operational/browserScripts.js';

export async function buildBrowserScripts(repoRoot: string): Promise<void> {
  const common = {
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: false,
    logLevel: 'warning',
    tsconfig: path.join(repoRoot, 'tsconfig.browser.json'),
  } as const;
  await build({
    ...common,
    entryPoints: [path.join(repoRoot, playgroundEntry)],
    outfile: path.join(repoRoot, 'dist', playgroundBundle),
    bundle: true,
    minify: true,
  });
  await build({
    ...common,
    entryPoints: [...signInModules, path.basename(swaggerUiInit)].map((name) => path.join(repoRoot, signInScripts, name.replace(/\.js$/, '.ts'))),
    outdir: path.join(repoRoot, 'dist', signInScripts),
    bundle: false,
  });
}
