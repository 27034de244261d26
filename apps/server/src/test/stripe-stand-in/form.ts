// How the stand-in reads requests and answers errors: form bodies as the SDK encodes them, the
// parameter checks Stripe makes, Stripe's error shape, and lists with Stripe's pagination.
import { randomBytes } from 'node:crypto';
import { addMonthsUtc } from '@ownvoice/shared';

export type Param = string | Param[] | { [key: string]: Param };
export type Params = { [key: string]: Param };
export type Metadata = Record<string, string>;
export type Interval = 'month' | 'year';

/** Form bodies as the SDK sends them (`line_items[0][price]=…&metadata[key]=…`): nested keys become objects, and objects keyed 0, 1, … become arrays. */
export function parseForm(encoded: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((part, at) => {
      if (at === path.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (isParams(next)) node = next;
      else {
        const created: Params = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return arrays(root) as Params;
}

const isParams = (value: Param | undefined): value is Params =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function arrays(value: Param): Param {
  if (!isParams(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => arrays(value[key] as Param));
  }
  return Object.fromEntries(keys.map((key) => [key, arrays(value[key] as Param)]));
}

// --- Errors, in Stripe's shape (https://docs.stripe.com/api/errors) ---------------------------

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  get body(): string {
    return JSON.stringify({
      error: {
        type: this.type,
        message: this.message,
        ...(this.code && { code: this.code }),
        ...(this.declineCode && { decline_code: this.declineCode }),
        ...(this.param && { param: this.param }),
      },
    });
  }
}

export const invalid = (message: string, param?: string) =>
  new ApiError(400, 'invalid_request_error', message, undefined, param);
export const noSuch = (kind: string, id: string, status = 404, param?: string) =>
  new ApiError(status, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);
/** What the stand-in does not model: a test that needs it should extend the stand-in, not pass by accident. */
export const notModelled = (what: string, param?: string) => invalid(`The stand-in does not model ${what}.`, param);

// --- Parameters --------------------------------------------------------------------------------

export function text(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value !== undefined && typeof value !== 'string') throw invalid(`Invalid ${key}: must be a string`, key);
  return value;
}
export function required(params: Params, key: string): string {
  const value = text(params, key);
  if (value === undefined || value === '') throw invalid(`Missing required param: ${key}.`, key);
  return value;
}
export function whole(params: Params, key: string): number | undefined {
  const value = text(params, key);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, key);
  return Number(value);
}
export function flag(params: Params, key: string): boolean | undefined {
  const value = text(params, key);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, key);
  return value === 'true';
}
export function oneOf<T extends string>(params: Params, key: string, values: readonly T[]): T | undefined {
  const value = text(params, key);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw invalid(`Invalid ${key}: must be one of ${values.join(', ')}`, key);
  }
  return value as T;
}
export function nested(params: Params, key: string): Params | undefined {
  const value = params[key];
  if (value === undefined || value === '') return undefined;
  if (!isParams(value)) throw invalid(`Invalid object: ${key}`, key);
  return value;
}
export function records(params: Params, key: string): Params[] {
  const value = params[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isParams)) throw invalid(`Invalid array: ${key}`, key);
  return value;
}
export function strings(params: Params, key: string): string[] {
  const value = params[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid(`Invalid array: ${key}`, key);
  return value;
}
export function metadataOf(params: Params, key = 'metadata'): Metadata {
  const value = nested(params, key) ?? {};
  return Object.fromEntries(Object.keys(value).map((name) => [name, required(value, name)]));
}
/** Stripe's rule for metadata updates: keys are added or replaced, and an empty value removes one. */
export function mergeMetadata(into: Metadata, changes: Metadata): Metadata {
  const merged = { ...into };
  for (const [key, value] of Object.entries(changes)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
/** `automatic_tax[enabled]`, accepted and kept; the stand-in computes no tax (prices include it). */
export function automaticTaxOf(params: Params): boolean | undefined {
  const tax = nested(params, 'automatic_tax');
  return tax ? (flag(tax, 'enabled') ?? false) : undefined;
}

/** A `created` filter (`created=…` or `created[gte]=…` and the like), as list calls take it. */
export function createdFilter(params: Params): (created: number) => boolean {
  const value = params.created;
  if (value === undefined) return () => true;
  if (typeof value === 'string') {
    const at = whole(params, 'created');
    return (created) => created === at;
  }
  if (!isParams(value)) throw invalid('Invalid created', 'created');
  const bound = (key: string) => whole(value, key);
  const [gt, gte, lt, lte] = [bound('gt'), bound('gte'), bound('lt'), bound('lte')];
  return (created) =>
    (gt === undefined || created > gt) &&
    (gte === undefined || created >= gte) &&
    (lt === undefined || created < lt) &&
    (lte === undefined || created <= lte);
}

// --- Lists -------------------------------------------------------------------------------------

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export const list = <T>(data: T[], url: string): List<T> => ({ object: 'list', data, has_more: false, url });

/**
 * One page of a list call, newest first, as Stripe pages (`limit` 1–100, default 10, and
 * `starting_after` the last id of the page before), which the SDK's auto-pagination follows.
 */
export function page<T extends { id: string; created: number }>(all: T[], params: Params, url: string): List<T> {
  const limit = whole(params, 'limit') ?? 10;
  if (limit < 1 || limit > 100) throw invalid('Limit must be between 1 and 100.', 'limit');
  // Newest first; records made in the same second keep the order they were made in, reversed.
  const ordered = all
    .map((record, at) => ({ record, at }))
    .sort((a, b) => b.record.created - a.record.created || b.at - a.at);
  const after = text(params, 'starting_after');
  let start = 0;
  if (after !== undefined) {
    start = ordered.findIndex(({ record }) => record.id === after) + 1;
    if (start === 0) throw noSuch('object', after, 400, 'starting_after');
  }
  const data = ordered.slice(start, start + limit).map(({ record }) => record);
  return { object: 'list', data, has_more: start + limit < ordered.length, url };
}

// --- Odds and ends -----------------------------------------------------------------------------

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const clone = <T>(value: T): T => structuredClone(value);

export const DAY = 24 * 60 * 60;

/** Periods run in calendar months, as Stripe counts them. */
export function addInterval(seconds: number, interval: Interval, count = 1): number {
  const months = (interval === 'year' ? 12 : 1) * count;
  return Math.floor(addMonthsUtc(new Date(seconds * 1000), months).getTime() / 1000);
}

export function intervalOf(params: Params | { interval?: unknown }): Interval {
  const interval = params.interval;
  if (interval !== 'month' && interval !== 'year') {
    throw notModelled(`intervals other than month and year (${String(interval)})`, 'interval');
  }
  return interval;
}
