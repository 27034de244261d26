// A plain HTTP client for the contract tests: JSON requests with the bearer key, and event streams
// read event by event as they arrive (so a test can act mid-stream: unload the adapter, hang up).
// It uses fetch rather than an SDK so the tests see the exact bytes a server sends.

export interface ContractTarget {
  /** Where the server listens, without /v1: http://127.0.0.1:8001. */
  baseUrl: string;
  /** The bearer key the server was started with, if any. */
  key?: string | undefined;
  /** A LoRA adapter the server can load: a GGUF adapter for ours, a PEFT folder for vLLM. */
  adapterPath: string;
  /** A file that exists but is no adapter; its test is skipped when absent. */
  invalidAdapterPath?: string | undefined;
  /**
   * Whether unloading an adapter ends the streams on it with an error event (ours does). vLLM does
   * not document what happens; set false to accept any clean end there.
   */
  unloadStopsStreams?: boolean;
}

export interface JsonAnswer {
  status: number;
  /** The parsed body, or the raw text where it is not JSON. */
  body: unknown;
  text: string;
  headers: Headers;
}

export function client(target: ContractTarget) {
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...(target.key ? { authorization: `Bearer ${target.key}` } : {}),
    ...extra,
  });

  async function request(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    options: { headers?: Record<string, string>; raw?: string } = {},
  ): Promise<JsonAnswer> {
    const init: RequestInit = { method, headers: headers(options.headers) };
    if (options.raw !== undefined) init.body = options.raw;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...headers(options.headers) };
    }
    const res = await fetch(`${target.baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a success sentence of the LoRA API, Prometheus text): kept as text.
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  /** POSTs a streaming request; reads its `data:` events one by one. */
  async function stream(path: string, body: unknown) {
    const controller = new AbortController();
    const res = await fetch(`${target.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers() },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    /** Every event's raw block, for the format checks. */
    const blocks: string[] = [];
    /** The next event's data (`[DONE]` included), or undefined once the body has ended. */
    async function next(): Promise<string | undefined> {
      while (true) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          blocks.push(block);
          return block.startsWith('data: ') ? block.slice('data: '.length) : block;
        }
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return undefined;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    }
    /** Every remaining event's data, until the body ends. */
    async function rest(): Promise<string[]> {
      const out: string[] = [];
      for (let data = await next(); data !== undefined; data = await next()) out.push(data);
      return out;
    }
    return {
      status: res.status,
      headers: res.headers,
      blocks,
      next,
      rest,
      /** Hangs up, as a client that went away does. */
      hangUp: () => controller.abort(),
    };
  }

  return {
    get: (path: string, options?: { headers?: Record<string, string> }) => request('GET', path, undefined, options),
    post: (path: string, body: unknown, options?: { headers?: Record<string, string>; raw?: string }) =>
      request('POST', path, body, options),
    stream,
  };
}

/** Reads a counter or gauge from Prometheus text: the sum over the lines of `name` whose labels include `labels`. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).some(([k, v]) => !line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
