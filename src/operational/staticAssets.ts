// The one place static files are looked up and served (Swagger UI's assets, and any other bundle
// served the same way). Names are looked up in a Map built from a fixed list, never as properties
// of a plain object and never as file-system paths: `__proto__`, `constructor`, `hasOwnProperty`,
// `..`, encoded dot segments or slashes name no entry and answer 404, as does any other name.
import fs from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';

export interface StaticAsset {
  /** absolute path of the file on disk */
  file: string;
  contentType: string;
}

export interface StaticAssetOptions {
  /** URL prefix, e.g. `/docs/assets`; files are served at `${prefix}/${name}` */
  prefix: string;
  /** file name (no slashes) → where it lives */
  assets: ReadonlyMap<string, StaticAsset>;
  cacheSeconds: number;
}

/** The asset of a requested name, or null for any name that is not in the list. */
export function findStaticAsset(assets: ReadonlyMap<string, StaticAsset>, name: string): StaticAsset | null {
  return assets.get(name) ?? null;
}

/** Registers `GET ${prefix}/:name`; unknown names fall through to the app's 404. Files are read once. */
export function registerStaticAssets(app: Hono<any>, options: StaticAssetOptions): void {
  const cache = new Map<string, Buffer>();
  app.get(`${options.prefix}/:name`, (c) => {
    const name = c.req.param('name');
    const asset = findStaticAsset(options.assets, name);
    if (!asset) return c.notFound();
    let content = cache.get(name);
    if (!content) {
      content = fs.readFileSync(asset.file);
      cache.set(name, content);
    }
    return c.body(new Uint8Array(content), 200, { 'content-type': asset.contentType, 'cache-control': `public, max-age=${options.cacheSeconds}` });
  });
}

/** Assets that are files of one directory, by file name. */
export function assetsIn(directory: string, contentTypes: Record<string, string>): ReadonlyMap<string, StaticAsset> {
  return new Map(Object.entries(contentTypes).map(([name, contentType]) => [name, { file: path.join(directory, name), contentType }]));
}
