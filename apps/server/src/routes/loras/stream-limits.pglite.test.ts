// Streams nobody reads and streams by the dozen: a reader that stops reading pauses the
// generation behind its stream, which ends after a bounded stall; one person's streams beyond
// the per-person limit are refused with a 429 while someone else is served. The app listens on a
// Unix socket here: its small buffers fill after a few kilobytes, as a slow reader's would.
// On PGlite only: what it proves is about streams and sockets, not the database.

import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkText, VOICE_PRESETS } from '@ownvoice/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoiceRow } from '../../db/schema.js';
import { embeddedEndpoint } from '../../test/inference.js';
import { copyVoice, quickVoice } from '../../test/quick-voice.js';
import { jsonBody, openStream, streamEvents } from '../../test/streams.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

let ctx: TestContext;
let socketDir: string;
let owner: TestClient;
let voice: VoiceRow;
/** About 60,000 characters: 170-odd chunks at the house model's passage size. */
const LONG_TEXT = writingSample(60_000, 0.2);
const LONG_TEXT_CHUNKS = chunkText(LONG_TEXT, { maxChars: VOICE_PRESETS.tiny.passageMaxChars }).chunks.length;
const STALL_MS = 1000;

beforeAll(async () => {
  ctx = await createTestContext();
  socketDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-sock-'));
  await ctx.app.listen({ path: path.join(socketDir, 'app.sock') });
  ctx.app.platform.services.conversion.gate.limits.stallMs = STALL_MS;
  owner = ctx.client();
  const ownerId: string = (await owner.register()).res.json().user.id;
  voice = await quickVoice(ctx, ownerId);
  expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
}, 300_000);
afterAll(async () => {
  await ctx.close();
  rmSync(socketDir, { recursive: true, force: true });
});

/** Counts the generations sent to the inference endpoint while `during` runs. */
async function countingGenerations<T>(during: (calls: { settled: boolean }[]) => Promise<T>): Promise<T> {
  const endpoint = await embeddedEndpoint(ctx);
  const original = endpoint.complete.bind(endpoint);
  const calls: { settled: boolean }[] = [];
  endpoint.complete = (prompt, options) => {
    const call = { settled: false };
    calls.push(call);
    return original(prompt, options).finally(() => {
      call.settled = true;
    });
  };
  try {
    return await during(calls);
  } finally {
    endpoint.complete = original;
  }
}

describe('a reader that stops reading', () => {
  it('pauses the generation behind its stream and is cut off after a bounded stall', async () => {
    await countingGenerations(async (calls) => {
      const body = JSON.stringify({ text: LONG_TEXT });
      const headers = {
        ...(await owner.csrfHeaders()),
        authorization: `Bearer ${owner.token}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        host: 'localhost',
      };
      const socket = net.connect(path.join(socketDir, 'app.sock'));
      socket.pause();
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => {});
      try {
        let received = '';
        socket.write(
          `POST /api/loras/${voice.id}/convert-stream HTTP/1.1\r\n${Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\r\n')}\r\n\r\n${body}`,
        );
        // The server cuts the connection once the reader has read nothing for the stall period.
        await expect.poll(() => calls.length, { timeout: 20_000 }).toBeGreaterThan(0);
        const started = Date.now();
        const connections = () =>
          new Promise<number>((resolve) => ctx.app.server.getConnections((_error, count) => resolve(count)));
        // However long a busy machine takes to fill the buffers: the cut is the behaviour, not its pace.
        await expect.poll(connections, { timeout: 90_000, interval: 100 }).toBe(0);
        expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_MS - 100);
        // Meanwhile the generation waited: the chunks whose events fill the socket's buffers (a
        // few dozen kilobytes in gathered writes; how many depends on how long the model's chunks
        // and the inference server's gathered deltas are), far from all of the text's, all ended.
        expect(calls.length).toBeGreaterThan(0);
        expect(calls.length).toBeLessThan(LONG_TEXT_CHUNKS / 2);
        await expect.poll(() => calls.every((c) => c.settled)).toBe(true);
        const generated = calls.length;
        // The server has ended the stream: what it had buffered arrives, then the connection closes.
        socket.on('data', (data: Buffer) => {
          received += data.toString('utf8');
        });
        socket.resume();
        await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
        expect(received).toContain('"type":"chunk"');
        expect(received).not.toContain('"type":"complete"');
        expect(calls.length).toBe(generated);
      } finally {
        socket.destroy();
      }
    });
  }, 180_000);
});

describe('many streams from one person', () => {
  it('refuses the one past the limit with a 429 while another person is served, and frees slots as streams end', async () => {
    const { perUser } = ctx.app.platform.services.conversion.gate.limits;
    const streams = await Promise.all(
      Array.from({ length: perUser }, () =>
        openStream(ctx, owner, `/api/loras/${voice.id}/convert-stream`, jsonBody({ text: LONG_TEXT })),
      ),
    );
    await Promise.all(streams.map((s) => s.seen('"type":"chunk_positions"')));

    const extra = await owner.post(`/api/loras/${voice.id}/convert-stream`, { text: LONG_TEXT });
    expect(extra.statusCode).toBe(429);
    expect(extra.json()).toMatchObject({ code: 'RATE_LIMITED', msg: expect.stringMatching(/Wait for one to finish/) });
    const create = await owner.upload('/api/content/generate-stream', {
      fields: { prompt: 'A note about the fair', format: 'social_post', selectedLora: voice.id },
    });
    expect(create.statusCode).toBe(429);

    // Someone else converts meanwhile, to the end.
    const other = ctx.client();
    const otherId: string = (await other.register()).res.json().user.id;
    const theirs = await copyVoice(ctx, otherId, voice);
    expect((await other.post(`/api/loras/${theirs.id}/activate`)).json().status).toBe('active');
    const served = await other.post(`/api/loras/${theirs.id}/convert-stream`, { text: LONG_TEXT.slice(0, 800) });
    expect(served.statusCode).toBe(200);
    expect(streamEvents(served.body).at(-1)).toEqual({ type: 'complete' });

    // Streams that end give their slots back.
    for (const s of streams) s.hangUp();
    await Promise.all(streams.map((s) => s.done));
    await expect
      .poll(
        async () => (await owner.post(`/api/loras/${voice.id}/convert-stream`, { text: 'A short note.' })).statusCode,
      )
      .toBe(200);
  }, 60_000);
});
