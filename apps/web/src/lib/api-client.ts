// The API client: JSON over fetch under one base path, cookies included (the CSRF
// secret is a cookie), the bearer token when one is stored, and a CSRF header on every request
// that changes state. A 403 with a CSRF_ code means the token went stale: fetch one and retry once.
import { CSRF_HEADER, csrfTokenResponseSchema, isCsrfErrorCode } from '@ownvoice/shared';
import type { z } from 'zod';
import { ApiError, apiErrorFromBody } from './api-error';
import { CsrfTokenCache } from './csrf-token-cache';

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Codes with which the server says the bearer token itself is no longer any good. */
const SESSION_REJECTED_CODES: ReadonlySet<string> = new Set(['UNAUTHENTICATED', 'SESSION_EXPIRED']);

export interface RequestOptions<T> {
  method?: HttpMethod;
  /** Sent as JSON, or as is for FormData and a Blob (a file). */
  body?: unknown;
  /** Validates the answer; without it the parsed JSON is returned unchecked. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Overrides the stored token, e.g. to revoke a session whose token was just removed. */
  token?: string | null;
  /** The Accept header; JSON unless a stream is asked for. */
  accept?: string;
  /** Extra headers for this request only (a second-factor code); the client's own headers win. */
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  /** '/api' in the browser; an absolute URL in tests. */
  baseUrl?: string;
  getToken?: () => string | null;
  fetchImpl?: typeof fetch;
  now?: () => number;
  /** Called when a request that carried a token is refused because the session is gone. */
  onSessionRejected?: (error: ApiError) => void;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  /**
   * A request whose answer the caller reads itself (an event stream): the raw Response, ok or not,
   * sent with the token and CSRF header, and reporting a refused session like request() does.
   */
  stream(path: string, options?: Omit<RequestOptions<unknown>, 'schema'>): Promise<Response>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  /** The CSRF cache, exposed for callers that stream with fetch directly. */
  readonly csrf: CsrfTokenCache;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createApiClient({
  baseUrl = '/api',
  getToken = () => null,
  fetchImpl = (...args) => fetch(...args),
  now = Date.now,
  onSessionRejected,
}: ApiClientOptions = {}): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  const url = (path: string) => `${base}${path.startsWith('/') ? path : `/${path}`}`;

  const csrf = new CsrfTokenCache({
    now,
    fetchToken: async () => {
      const response = await fetchImpl(url('/csrf-token'), {
        credentials: 'include',
        headers: { Accept: 'application/json' },
      });
      const body = await readBody(response);
      if (!response.ok) throw apiErrorFromBody(response.status, body);
      return csrfTokenResponseSchema.parse(body).csrfToken;
    },
  });

  async function send(path: string, method: HttpMethod, options: RequestOptions<unknown>): Promise<Response> {
    const headers = new Headers(options.headers);
    headers.set('Accept', options.accept ?? 'application/json');
    const token = options.token === undefined ? getToken() : options.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (!SAFE_METHODS.has(method)) headers.set(CSRF_HEADER, await csrf.get());

    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body instanceof Blob) {
      // A file sent as it is (a Voice package), with the type the browser gave it.
      headers.set('Content-Type', options.body.type || 'application/octet-stream');
      body = options.body;
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }

    const init: RequestInit = { method, headers, credentials: 'include' };
    if (body !== undefined) init.body = body;
    if (options.signal) init.signal = options.signal;
    return fetchImpl(url(path), init);
  }

  /** A 401 for a token that was sent means the session is gone: the app signs out. */
  function reportIfSessionRejected(error: ApiError, options: RequestOptions<unknown>): void {
    const sentToken = options.token === undefined ? getToken() : options.token;
    if (error.status === 401 && sentToken && error.code && SESSION_REJECTED_CODES.has(error.code)) {
      onSessionRejected?.(error);
    }
  }

  async function stream(path: string, options: Omit<RequestOptions<unknown>, 'schema'> = {}): Promise<Response> {
    const response = await send(path, options.method ?? 'POST', options);
    if (response.status === 401) {
      reportIfSessionRejected(apiErrorFromBody(401, await readBody(response.clone())), options);
    }
    return response;
  }

  async function request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const method = options.method ?? 'GET';
    let response = await send(path, method, options);
    let body = await readBody(response);

    if (response.status === 403 && !SAFE_METHODS.has(method)) {
      const error = apiErrorFromBody(response.status, body);
      if (isCsrfErrorCode(error.code)) {
        // Stale or missing token (or cookie): get a fresh pair and try exactly once more.
        csrf.clear();
        response = await send(path, method, options);
        body = await readBody(response);
      }
    }

    if (!response.ok) {
      const error = apiErrorFromBody(response.status, body);
      reportIfSessionRejected(error, options);
      throw error;
    }

    if (!options.schema) return body as T;
    const parsed = options.schema.safeParse(body);
    if (!parsed.success) {
      throw new ApiError({
        status: response.status,
        msg: 'The server sent an unexpected answer. Please reload the page and try again.',
        code: 'UNEXPECTED_RESPONSE',
      });
    }
    return parsed.data;
  }

  return {
    csrf,
    request,
    stream,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    patch: (path, body, options) => request(path, { ...options, method: 'PATCH', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
  };
}
