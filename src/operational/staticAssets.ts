// Serves a fixed list of files under a URL prefix: files of an installed npm package (read once,
// kept in memory) or text made at start. Only listed names are served, so no part of the request
// path ever reaches the file system.
import fs from 'node:fs';
import type { Hono } from 'hono';

export type StaticAsset = { type: string; file: string } | { type: string; text: string };

export function registerStaticAssets(app: Hono<any>, prefix: string, assets: Record<string, StaticAsset>): void {
  const listed = new Map(Object.entries(assets));
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  app.get(`${prefix}/:file`, (c) => {
    const name = c.req.param('file');
    const asset = listed.get(name);
    if (!asset) return c.notFound();
    if ('text' in asset) return c.body(asset.text, 200, { 'content-type': asset.type, 'cache-control': 'public, max-age=3600' });
    let content = cache.get(name);
    if (!content) {
      content = new Uint8Array(fs.readFileSync(asset.file));
      cache.set(name, content);
    }
    return c.body(content, 200, { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' });
  });
}
