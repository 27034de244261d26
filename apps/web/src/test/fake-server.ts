// The server, faked at `fetch`: each test answers the calls its page makes, in the shapes the
// shared schemas give (typed with them), and may hold an event stream open to send events one by
// one. A call nobody answers fails the test loudly instead of hanging.
import type { ApiErrorBody } from '@ownvoice/shared';
import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (request: FakeRequest) => Response | Promise<Response>;

export const json = <T>(body: T, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A refusal, with the one error body every /api route answers with. */
export const refusal = (status: number, body: ApiErrorBody): Response => json(body, status);

/** An event stream the test writes to: `send` one event at a time, then `end` the body. */
export interface OpenStream<E> {
  response: Response;
  send(event: E): void;
  end(): void;
}

export function openStream<E>(): OpenStream<E> {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    send: (event) => controller?.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
    end: () => controller?.close(),
  };
}

/** A whole event stream at once. */
export function eventStream<E>(events: readonly E[]): Response {
  const stream = openStream<E>();
  for (const event of events) stream.send(event);
  stream.end();
  return stream.response;
}

async function readBody(init: RequestInit | undefined): Promise<unknown> {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return JSON.parse(body);
  return body;
}

export function fakeServer() {
  const routes = new Map<string, Handler>();
  const requests: FakeRequest[] = [];
  const key = (method: string, path: string) => `${method} ${path}`;

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    const method = init?.method ?? 'GET';
    const request: FakeRequest = { method, path: url.pathname + url.search, body: await readBody(init) };
    requests.push(request);
    const handler = routes.get(key(method, url.pathname));
    if (!handler) throw new Error(`The fake server has no answer for ${method} ${url.pathname}`);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchStub);
  // Every state-changing call fetches a CSRF token first.
  routes.set(key('GET', '/api/csrf-token'), () => json({ csrfToken: 'test-csrf-token' }));

  return {
    /** Answers `method path` (the path without its query) with `handler` from now on. */
    on(method: string, path: string, handler: Handler): void {
      routes.set(key(method, path), handler);
    },
    /** The calls made to `method path`, in order. */
    calls(method: string, path: string): FakeRequest[] {
      return requests.filter((request) => request.method === method && request.path.split('?')[0] === path);
    },
  };
}
