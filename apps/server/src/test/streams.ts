// Server-sent-event streams over a real socket, for tests that act while a stream runs (sleep a
// Voice mid-conversion, hang up after some events): app.inject only answers once a stream ends.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestClient, TestContext } from './test-app.js';

/** Where to reach the app: its Unix socket if it listens on one, else loopback (listening from the first call on). */
export async function listening(ctx: TestContext): Promise<{ socketPath: string } | { host: string; port: number }> {
  if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address() as AddressInfo | string;
  return typeof address === 'string' ? { socketPath: address } : { host: '127.0.0.1', port: address.port };
}

export interface OpenStream {
  /** Resolves once the body holds `needle` (a chunk event by default). */
  seen(needle?: string): Promise<void>;
  /** The whole body, once the server ends it. */
  done: Promise<string>;
  /** Hangs up, as a closed browser tab does. */
  hangUp(): void;
  body(): string;
}

/** Starts a JSON (or multipart) POST whose answer is an event stream, reading it as it comes. */
export async function openStream(
  ctx: TestContext,
  client: TestClient,
  url: string,
  payload: { body: Buffer | string; contentType: string },
): Promise<OpenStream> {
  const target = await listening(ctx);
  const headers = {
    ...(await client.csrfHeaders()),
    authorization: `Bearer ${client.token}`,
    'content-type': payload.contentType,
    'content-length': String(Buffer.byteLength(payload.body)),
  };
  let text = '';
  const waiting: { needle: string; resolve: () => void }[] = [];
  let request: http.ClientRequest;
  const done = new Promise<string>((resolve, reject) => {
    request = http.request({ ...target, method: 'POST', path: url, headers }, (response) => {
      response.on('data', (data: Buffer) => {
        text += data.toString('utf8');
        for (const w of [...waiting]) {
          if (text.includes(w.needle)) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve();
          }
        }
      });
      response.on('error', () => resolve(text));
      response.on('end', () => resolve(text));
      response.on('close', () => resolve(text));
    });
    request.on('error', (error) => (text ? resolve(text) : reject(error)));
    request.end(payload.body);
  });
  return {
    seen: (needle = '"type":"chunk"') =>
      text.includes(needle)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.push({ needle, resolve })),
            done.then((body) => {
              if (!body.includes(needle)) throw new Error(`the stream ended without ${needle}: ${body.slice(-500)}`);
            }),
          ]),
    done,
    hangUp: () => request.destroy(),
    body: () => text,
  };
}

/** The `data:` events of an event-stream body, parsed. */
export function streamEvents(body: string): Record<string, unknown>[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
}

export const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), contentType: 'application/json' });

/** Each chunk of a Create's rewrite as the body so far has it (a reroll starts it again); a cut last block is left out. */
export function rewriteChunksOf(body: string): string[] {
  const chunks: string[] = [];
  for (const e of streamEvents(body.slice(0, body.lastIndexOf('\n\n') + 2))) {
    if (e.stage !== 'rephrase' || typeof e.chunkIndex !== 'number') continue;
    if (e.type === 'chunk') chunks[e.chunkIndex] = (chunks[e.chunkIndex] ?? '') + String(e.text);
    if (e.type === 'chunk_reroll') chunks[e.chunkIndex] = '';
  }
  return Array.from(chunks, (t) => t ?? '');
}
