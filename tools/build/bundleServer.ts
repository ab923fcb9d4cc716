// The last compiling step of `npm run build`: the server tsc compiled into dist/src/ bundled by
// esbuild into dist/server/, which is what `npm start` runs. A start of the unbundled build spent
// most of its time in Node's ESM loader resolving, reading and linking about a thousand files
// (drizzle-orm and hono alone are some 150); the bundle is a few. Each dynamic import (PostgreSQL,
// Redis, OpenID Connect, the OpenAI planner, the OpenTelemetry SDK) stays a chunk of its own, loaded
// only when the configuration asks for it, and the code shared between chunks is in shared chunks,
// so every module exists once.
//
// Bundled from node_modules are only the packages every start loads and that are plain JavaScript
// without a file path of their own (BUNDLED_PACKAGES); every other package stays an import of
// node_modules as before: native ones (better-sqlite3), the ones that locate files next to their
// code (pino's transports, ioredis), the optional ones (loaded only by a lazy chunk). The build
// fails if a bundled package starts to use its own location.
//
// The service's own code finds its runtime files (specs, migrations, catalogue, dashboard scripts,
// validators' runtime requires) from its own location, import.meta.url or import.meta.dirname; in
// the bundle each use is rewritten to the location of the compiled file it came from in dist/, so
// every path resolves as in the unbundled build (copyRuntimeFiles.ts puts the files there).
// dist/server/bundle-inputs.json lists, per chunk, the files it holds (test/process/startupModules.test.ts
// reads it to tell what a start loaded).
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Loaded by every start, plain JavaScript, no use of their own file location. The OpenTelemetry SDK
 * (not bundled, loaded only with tracing on) has its own copy of @opentelemetry/api from
 * node_modules; composition/tracing.ts registers the tracer provider through the bundle's copy, whose
 * tracers the service holds (test/process/builtServiceTracing.test.ts sends a span through them).
 */
export const BUNDLED_PACKAGES = ['drizzle-orm', 'hono', '@hono/node-server', 'ws', 'prom-client', '@opentelemetry/api'];

export const serverBundleDir = 'dist/server';
export const serverBundleInputs = 'bundle-inputs.json';

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** `import.meta.url`, `.dirname` and `.filename` of a compiled file, as seen from a chunk in `outdir`. */
function withOwnLocation(source: string, file: string, outdir: string): string {
  const relativeFile = JSON.stringify(path.relative(outdir, file));
  const relativeDir = JSON.stringify(path.relative(outdir, path.dirname(file)) || '.');
  const rewritten = source
    .replaceAll('import.meta.url', `new URL(${relativeFile}, import.meta.url).href`)
    .replaceAll('import.meta.dirname', `__joinBundlePath(import.meta.dirname, ${relativeDir})`)
    .replaceAll('import.meta.filename', `__joinBundlePath(import.meta.dirname, ${relativeFile})`);
  return `import { join as __joinBundlePath } from 'node:path';\n${rewritten}`;
}

function serverBundlePlugin(distRoot: string, outdir: string): Plugin {
  const ownCode = [path.join(distRoot, 'src'), path.join(distRoot, 'generated'), path.join(distRoot, 'conformance')].map((dir) => dir + path.sep);
  return {
    name: 'server-bundle',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || !BUNDLED_PACKAGES.includes(packageName(args.path))) return { path: args.path, external: true };
        return undefined;
      });
      b.onLoad({ filter: /\.(js|mjs|cjs)$/ }, async (args) => {
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (ownCode.some((dir) => args.path.startsWith(dir))) {
          return { contents: source.includes('import.meta') ? withOwnLocation(source, args.path, outdir) : source, loader: 'js' };
        }
        if (/\bimport\.meta\b|\b__dirname\b|\b__filename\b/.test(source))
          throw new Error(`${args.path} uses its own location: it cannot be bundled (remove its package from BUNDLED_PACKAGES)`);
        return undefined;
      });
    },
  };
}

export async function bundleServer(repoRoot: string): Promise<void> {
  const distRoot = path.join(repoRoot, 'dist');
  const outdir = path.join(repoRoot, serverBundleDir);
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: path.join(distRoot, 'src', 'main.js') },
    outdir,
    absWorkingDir: repoRoot,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    metafile: true,
    // The bundled CommonJS packages (ws, prom-client) require Node's modules;
    // an ES module has no `require` of its own.
    banner: { js: "import { createRequire as __createBundleRequire } from 'node:module';\nconst require = __createBundleRequire(import.meta.url);" },
    plugins: [serverBundlePlugin(distRoot, outdir)],
  });
  const inputs = Object.fromEntries(
    Object.entries(result.metafile.outputs).map(([output, { inputs: held }]) => [path.basename(output), Object.keys(held).sort()]),
  );
  fs.writeFileSync(path.join(outdir, serverBundleInputs), `${JSON.stringify(inputs, null, 1)}\n`);
}
