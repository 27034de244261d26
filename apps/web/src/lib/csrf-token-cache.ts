// Holds the CSRF token between requests: kept CSRF_CACHE_MS after it was
// fetched, but refreshed CSRF_SAFETY_MARGIN_MS before that, so a token never expires mid-request.
import { CSRF_CACHE_MS, CSRF_SAFETY_MARGIN_MS } from '@ownvoice/shared';

export interface CsrfTokenCacheOptions {
  fetchToken: () => Promise<string>;
  now?: () => number;
  cacheMs?: number;
  safetyMarginMs?: number;
}

export class CsrfTokenCache {
  readonly #fetchToken: () => Promise<string>;
  readonly #now: () => number;
  readonly #refreshAfterMs: number;
  #token: string | null = null;
  #fetchedAt = 0;
  // Concurrent requests share one fetch instead of each asking for a token.
  #pending: Promise<string> | null = null;

  constructor({
    fetchToken,
    now = Date.now,
    cacheMs = CSRF_CACHE_MS,
    safetyMarginMs = CSRF_SAFETY_MARGIN_MS,
  }: CsrfTokenCacheOptions) {
    this.#fetchToken = fetchToken;
    this.#now = now;
    this.#refreshAfterMs = cacheMs - safetyMarginMs;
  }

  /** The cached token while it is fresh, otherwise a newly fetched one. */
  async get(): Promise<string> {
    if (this.#token !== null && this.#now() - this.#fetchedAt < this.#refreshAfterMs) {
      return this.#token;
    }
    if (!this.#pending) {
      const pending = this.#fetchToken().then(
        (token) => {
          if (this.#pending === pending) {
            this.#token = token;
            this.#fetchedAt = this.#now();
            this.#pending = null;
          }
          return token;
        },
        (error: unknown) => {
          if (this.#pending === pending) this.#pending = null;
          throw error;
        },
      );
      this.#pending = pending;
    }
    return this.#pending;
  }

  /** Forgets the token, e.g. after the server rejected it. */
  clear(): void {
    this.#token = null;
    this.#pending = null;
  }
}
