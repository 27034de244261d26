// Which failed calls mean a usage limit (RESOURCE_KEYS) or the credits ran out, and which one.
// The server says so with reason "insufficient_limit" and a limitType; older or other answers only
// say it in words, so the message is read too.
import { RESOURCE_KEYS, type ResourceKey } from '@ownvoice/shared';
import { isApiError } from './api-error';

export type InsufficientLimit =
  /**
   * A usage limit ran out; resource is null when the answer does not say which. `also`: what else
   * the same action lacks (a Voice needs a storage slot and a training), for one purchase of all.
   */
  | { kind: 'limit'; resource: ResourceKey | null; also?: ResourceKey[] }
  /** Credits ran out; required is the amount the server asked for, when it said. */
  | { kind: 'credits'; required: number | null };

const INSUFFICIENT_LIMIT_REASON = 'insufficient_limit';

const isResourceKey = (value: unknown): value is ResourceKey =>
  typeof value === 'string' && (RESOURCE_KEYS as readonly string[]).includes(value);

/** Words in a message that name a resource, most specific first. */
const RESOURCE_WORDS: readonly [RegExp, ResourceKey][] = [
  [/model training|trainable voice|voices? trained|models? trained/i, 'modelsTrained'],
  [/activation hours?|waking hours?/i, 'activationHours'],
  [/proofreads?|chunk edits?/i, 'chunkEdits'],
  [/short content/i, 'shortContent'],
  [/storage slots?/i, 'storageSlots'],
];

/** Words that mean some limit ran out without naming it. */
const GENERIC_LIMIT_WORDS = /\blimit\b|\busage\b/i;

const resourceNamedIn = (message: string): ResourceKey | null =>
  RESOURCE_WORDS.find(([pattern]) => pattern.test(message))?.[1] ?? null;

function creditsIn(message: string): InsufficientLimit | null {
  if (!/insufficient credits/i.test(message)) return null;
  const required = /required:\s*([\d,.]+)/i.exec(message)?.[1];
  const amount = required === undefined ? Number.NaN : Number(required.replaceAll(',', ''));
  return { kind: 'credits', required: Number.isFinite(amount) ? amount : null };
}

/** What ran out, when the error says a resource did; null for every other error. */
export function detectInsufficientLimit(error: unknown): InsufficientLimit | null {
  if (!isApiError(error)) {
    return error instanceof Error ? creditsIn(error.message) : null;
  }
  const credits = creditsIn(error.msg);
  if (credits) return credits;
  if (error.reason === INSUFFICIENT_LIMIT_REASON || error.code === 'INSUFFICIENT_LIMIT') {
    const resource = isResourceKey(error.limitType) ? error.limitType : resourceNamedIn(error.msg);
    const also = error.limitTypes.filter(isResourceKey).filter((key) => key !== resource);
    return { kind: 'limit', resource, ...(resource !== null && also.length > 0 ? { also } : {}) };
  }
  // Only a 400 that is not about the form is read for words: a 413, a 429 or a field rule may
  // also talk about limits, of another kind.
  if (error.status !== 400 || error.code === 'VALIDATION_ERROR') return null;
  const resource = resourceNamedIn(error.msg);
  if (resource) return { kind: 'limit', resource };
  return GENERIC_LIMIT_WORDS.test(error.msg) ? { kind: 'limit', resource: null } : null;
}
