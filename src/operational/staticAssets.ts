// The one place static files are served (Swagger UI's and the AsyncAPI page's assets): a fixed list
// of files of an installed npm package (read once, kept in memory) or text made at start, under a URL
// prefix. Names are looked up as keys of a Map, never as properties of a plain object nor as paths:
// `__proto__`, `constructor`, `..`, encoded dot segments or slashes name no entry and answer 404.
import fs from 'node:fs';
import type { Env, Hono } from 'hono';

export type StaticAsset = { type: string; file: string } | { type: string; text: string };

/** The asset of a requested name, or null for any name that is not in the list. */
export function findStaticAsset(assets: ReadonlyMap<string, StaticAsset>, name: string): StaticAsset | null {
  return assets.get(name) ?? null;
}

export function registerStaticAssets<E extends Env>(app: Hono<E>, prefix: string, assets: Record<string, StaticAsset>): void {
  const listed = new Map(Object.entries(assets));
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  app.get(`${prefix}/:file`, (c) => {
    const name = c.req.param('file');
    const asset = findStaticAsset(listed, name);
    if (!asset) return c.notFound();
    if ('text' in asset) return c.body(asset.text, 200, { 'content-type': asset.type, 'cache-control': 'public, max-age=3600' });
    let content = cache.get(name);
    if (!content) {
      if (!fs.existsSync(asset.file)) {
        // A browser script that `npm run build` makes, asked of a service run from the sources before any build.
        return c.text(`${prefix}/${name} is not built: run npm run build, then reload.`, 503, { 'retry-after': '60', 'cache-control': 'no-store' });
      }
      content = new Uint8Array(fs.readFileSync(asset.file));
      cache.set(name, content);
    }
    return c.body(content, 200, { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' });
  });
}
