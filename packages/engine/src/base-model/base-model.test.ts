// The download path, against a local HTTP server that serves a model file: progress, a
// download interrupted half way resuming from where it stopped, a clear error when the server
// cannot be reached, and the default falling back to the house model when offline.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { smallHparams, tempDir, writeRandomModel } from '../test/fixtures.js';
import { REAL_MODEL, SKIP_REAL_MODEL } from '../test/real-model.js';
import { BaseModelError, type DownloadProgress, downloadModel, exactSize, resolveBaseModel } from './base-model.js';
import { SMOLLM2_135M } from './packaged-model.js';

let dir: string;
let server: Server;
let base: string;
let model: Buffer;
// The downloader writes in 5 MiB chunks, so resuming needs a file of several chunks.
let big: Buffer;
const ranges: string[] = [];
let slow = false;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  dir = tempDir();
  model = readFileSync(HOUSE_MODEL_PATH);
  big = readFileSync(
    writeRandomModel(dir, smallHparams({ nLayer: 6, nEmbd: 256, nFf: 1024, headDim: 64 }), { name: 'big' }),
  );
  server = createServer((req, res) => {
    const file = req.url === '/ownvoice-tiny.gguf' ? model : req.url === '/big.gguf' ? big : undefined;
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (req.headers.range) ranges.push(req.headers.range);
    const end = range?.[2] ? Number(range[2]) + 1 : file.length;
    const body = file.subarray(start, end);
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      ...(range ? { 'content-range': `bytes ${start}-${end - 1}/${file.length}` } : {}),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // Slow mode sends 256 KiB every 10 ms, so a test can interrupt the transfer half way.
    let at = 0;
    const step = slow ? 256 * 1024 : body.length;
    const send = () => {
      if (res.destroyed) return;
      const chunk = body.subarray(at, at + step);
      at += chunk.length;
      if (at >= body.length) res.end(chunk);
      else res.write(chunk, () => setTimeout(send, 10));
    };
    send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // A transfer a test broke off half way may hold its connection open: close() alone waits for it
  // (it did for 300 s in one CI run).
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('downloading a base model', () => {
  it('reports progress, saves the exact file, and does not fetch it twice', async () => {
    const progress: DownloadProgress[] = [];
    const target = path.join(dir, 'once');
    const file = await downloadModel(`${base}/ownvoice-tiny.gguf`, target, { onProgress: (p) => progress.push(p) });
    expect(sha(readFileSync(file))).toBe(sha(model));
    expect(progress.at(-1)?.downloadedBytes).toBe(model.length);
    expect(progress.at(-1)?.percent).toBe(100);
    const mtime = statSync(file).mtimeMs;
    await downloadModel(`${base}/ownvoice-tiny.gguf`, target);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it('cuts progress the downloader saved past the end of a finished file, and refuses a short one', () => {
    // What a late progress save leaves (see exactSize): the model, then bytes after it.
    const file = path.join(dir, 'late-save.gguf');
    writeFileSync(file, Buffer.concat([model, Buffer.from('{"part":0,"chunks":[2]}')]));
    exactSize(file, model.length);
    expect(sha(readFileSync(file))).toBe(sha(model));
    writeFileSync(file, model.subarray(0, 1000));
    expect(() => exactSize(file, model.length)).toThrow(`the download ended at 1000 of ${model.length} bytes`);
  });

  it('resumes an interrupted download from where it stopped', async () => {
    slow = true;
    ranges.length = 0;
    const target = path.join(dir, 'resume');
    const controller = new AbortController();
    let stoppedAt = 0;
    await expect(
      downloadModel(`${base}/big.gguf`, target, {
        signal: controller.signal,
        onProgress: (p) => {
          if (!stoppedAt && p.downloadedBytes > big.length * 0.6) {
            stoppedAt = p.downloadedBytes;
            controller.abort();
          }
        },
      }),
    ).rejects.toThrow();
    expect(stoppedAt).toBeGreaterThan(0);
    slow = false;
    const file = await downloadModel(`${base}/big.gguf`, target);
    expect(sha(readFileSync(file))).toBe(sha(big));
    const resumedFrom = Math.max(...ranges.map((r) => Number(/bytes=(\d+)/.exec(r)?.[1] ?? 0)));
    expect(resumedFrom).toBeGreaterThan(0);
  });

  it('says clearly when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attempt = downloadModel(`http://127.0.0.1:${port}/model.gguf`, path.join(dir, 'offline'));
    await expect(attempt).rejects.toBeInstanceOf(BaseModelError);
    await expect(attempt).rejects.toThrow(/Could not download.*set OWNVOICE_BASE_MODEL/);
  });
});

describe('choosing the base model', () => {
  it('falls back to the packaged model, then the house model, saying each step at warn level', async () => {
    const logs: string[] = [];
    const warnings: string[] = [];
    const resolved = await resolveBaseModel({
      dataDir: path.join(dir, 'data'),
      defaultSpec: 'http://127.0.0.1:9/unreachable.gguf',
      // pip finds no index: the packaged model cannot be had either.
      pipEnv: { PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_NO_CACHE_DIR: '1' },
      log: (m) => logs.push(m),
      warn: (m) => warnings.push(m),
    });
    expect(resolved).toMatchObject({ path: HOUSE_MODEL_PATH, source: 'house', name: 'tiny' });
    expect(resolved.fallbackReason).toMatch(/Could not download/);
    expect(resolved.fallbacks?.map((f) => f.model)).toEqual(['http://127.0.0.1:9/unreachable.gguf', 'smollm2-135m']);
    expect(resolved.fallbacks?.[1]?.reason).toMatch(/pip could not reach its package index/);
    expect(warnings[0]).toMatch(/could not use the base model http.*trying smollm2-135m next/);
    expect(warnings[1]).toMatch(/could not use the base model smollm2-135m; trying tiny next/);
    // What it means for results: rewrites on this model, and Voices trained before and from now.
    expect(warnings[2]).toMatch(
      /running on tiny instead of the default http:\/\/127.0.0.1:9\/unreachable.gguf: .*pseudo-scripture/,
    );
    expect(warnings[2]).toMatch(
      /Voices trained now are trained on tiny; Voices trained on http:\/\/127.0.0.1:9\/unreachable.gguf will not load/,
    );
    expect(logs.join('\n')).not.toMatch(/running on tiny/);
  });

  it.skipIf(SKIP_REAL_MODEL)('stops at the packaged real model when it is in the models folder', async () => {
    const data = path.join(dir, 'data-real');
    mkdirSync(path.join(data, 'models'), { recursive: true });
    symlinkSync(REAL_MODEL as string, path.join(data, 'models', SMOLLM2_135M.file));
    const warnings: string[] = [];
    const resolved = await resolveBaseModel({
      dataDir: data,
      defaultSpec: 'http://127.0.0.1:9/unreachable.gguf',
      warn: (m) => warnings.push(m),
    });
    expect(resolved).toMatchObject({ source: 'package', name: 'smollm2-135m' });
    expect(resolved.fallbacks).toHaveLength(1);
    expect(warnings.at(-1)).toMatch(/running on smollm2-135m instead of the default \S+: a real instruct model/);
  });

  it('does not fall back when the user chose a model that cannot be fetched', async () => {
    await expect(
      resolveBaseModel({ spec: 'http://127.0.0.1:9/unreachable.gguf', dataDir: path.join(dir, 'data') }),
    ).rejects.toThrow(/Could not download/);
  });

  it('accepts "tiny" and a local path, and rejects a path that is not a model', async () => {
    expect((await resolveBaseModel({ spec: 'tiny', dataDir: dir })).source).toBe('house');
    expect(await resolveBaseModel({ spec: HOUSE_MODEL_PATH, dataDir: dir })).toMatchObject({ source: 'local' });
    await expect(resolveBaseModel({ spec: path.join(dir, 'nothing.gguf'), dataDir: dir })).rejects.toThrow(
      /does not exist/,
    );
    await expect(resolveBaseModel({ spec: __filename, dataDir: dir })).rejects.toThrow(/not a GGUF/);
  });

  it('downloads a model given as a URL into the data folder', async () => {
    const resolved = await resolveBaseModel({ spec: `${base}/ownvoice-tiny.gguf`, dataDir: path.join(dir, 'data2') });
    expect(resolved.source).toBe('download');
    expect(resolved.path.startsWith(path.join(dir, 'data2', 'models'))).toBe(true);
  });
});
