// The built web app's files as the server answers them: read from disk once, then kept in memory
// with their ETag, type and caching. index.html changes with each build under the same name, so
// browsers revalidate it on every load; Vite names everything under assets/ by a hash of its
// content, so those are cached for good.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const INDEX_CACHE_CONTROL = 'no-cache';
export const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface WebFile {
  body: Buffer;
  etag: string;
  contentType: string;
  cacheControl: string;
}

/** The types a Vite build emits; anything else is served as bytes. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
};

export function webFile(name: string, body: Buffer, cacheControl: string): WebFile {
  return {
    body,
    // A strong validator of the content itself, the same on every server that serves this build.
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
    contentType: TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
    cacheControl,
  };
}

/** Whether an If-None-Match header names this ETag (a list, weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

export interface WebFiles {
  index: WebFile;
  /** A file under assets/ by its path there, read on first use; undefined when the build has none. */
  asset(name: string): Promise<WebFile | undefined>;
  /** Where the build's files are, relative to the folder, that are not served from memory. */
  readonly servedFromMemory: readonly string[];
}

/**
 * Reads index.html and lists assets/ (their contents are read on first request: source maps, most
 * of the build's size, are seldom asked for). A build is read once per start; the names it lists
 * are the only ones served, so a path never reaches the disk unless the build has that file.
 */
export function loadWebFiles(webDir: string): WebFiles {
  const index = webFile('index.html', readFileSync(path.join(webDir, 'index.html')), INDEX_CACHE_CONTROL);
  const assetsDir = path.join(webDir, 'assets');
  const names = statSync(assetsDir, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(assetsDir, { recursive: true, encoding: 'utf8' }).filter((n) =>
        statSync(path.join(assetsDir, n)).isFile(),
      )
    : [];
  const assets = new Map<string, Promise<WebFile | undefined>>();
  const known = new Set(names.map((n) => n.split(path.sep).join('/')));
  return {
    index,
    asset: (name) => {
      if (!known.has(name)) return Promise.resolve(undefined);
      let file = assets.get(name);
      if (!file) {
        file = readFile(path.join(assetsDir, name)).then(
          (body) => webFile(name, body, HASHED_CACHE_CONTROL),
          // Gone since the start (a rebuild): not served, and asked of the disk again next time.
          () => {
            assets.delete(name);
            return undefined;
          },
        );
        assets.set(name, file);
      }
      return file;
    },
    servedFromMemory: ['index.html', 'assets/**'],
  };
}
