// The playground page's script, bundled by esbuild for the browser (ES2022 modules, minified): the
// page's modules and the client package they import, in one file under dist/ where the server
// serves it from (src/operational/playgroundBundle.ts names both ends).
import path from 'node:path';
import { build } from 'esbuild';
import { playgroundBundle, playgroundEntry } from '../../src/operational/playgroundBundle.js';

export async function bundlePlayground(repoRoot: string): Promise<void> {
  await build({
    entryPoints: [path.join(repoRoot, playgroundEntry)],
    outfile: path.join(repoRoot, 'dist', playgroundBundle),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
  });
}
