// How requests reach an inference endpoint: over TCP for an http(s):// URL (a remote server,
// guarded by its bearer key), or over a Unix socket for unix:/path (the embedded process, whose
// socket sits in a folder only this OS user may enter). Either way the client sees an origin to
// build URLs on and a fetch to send them with.
import { Agent, fetch as undiciFetch } from 'undici';

export interface EndpointTransport {
  /** What request URLs start with: the endpoint's URL, or http://localhost over a socket. */
  origin: string;
  fetch: typeof fetch;
  close(): Promise<void>;
}

const UNIX = 'unix:';

export function transportFor(url: string): EndpointTransport {
  if (!url.startsWith(UNIX)) {
    return { origin: url.replace(/\/+$/, ''), fetch: globalThis.fetch.bind(globalThis), close: async () => {} };
  }
  const agent = new Agent({ connect: { socketPath: url.slice(UNIX.length) } });
  const viaSocket = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    }) as unknown as Promise<Response>;
  return { origin: 'http://localhost', fetch: viaSocket as typeof fetch, close: () => agent.close() };
}
