// The response writer: the keys a schema lists and nothing else, as zod's strip would leave them,
// without validating again; zod itself for what the writer cannot follow, and for every answer in
// the tests (check), which must then come out the same.
import { meResponseSchema, voiceSchema } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { type ZodType, z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.js';

const writerOf = (schema: ZodType, check = false) =>
  responseSerializerCompiler({ check })({ schema, method: 'GET', url: '/api/test', httpStatus: '200' }) as (
    value: unknown,
  ) => string;

const zodJson = (schema: ZodType, value: unknown) => JSON.stringify(z.encode(schema, value as never));

describe('the response writer', () => {
  it('writes only the listed keys, at every depth', () => {
    const schema = z.object({
      id: z.string(),
      nested: z.object({ n: z.number() }).nullable(),
      list: z.array(z.object({ ok: z.boolean(), kind: z.enum(['a', 'b']) })),
      free: z.unknown(),
    });
    const value = {
      id: 'x',
      passwordHash: 'secret',
      nested: { n: 1, mfaSecret: 'secret' },
      list: [{ ok: true, kind: 'a', extra: 1 }],
      free: { anything: [1, 'two'] },
    };
    const written = writerOf(schema)(value);
    expect(written).toBe(zodJson(schema, value));
    expect(written).not.toContain('secret');
    expect(writerOf(schema)({ ...value, nested: null })).toBe(zodJson(schema, { ...value, nested: null }));
  });

  it('leaves out optional keys that are absent or undefined', () => {
    const schema = z.object({ a: z.string().optional(), b: z.number().nullable().optional(), c: z.literal(1) });
    for (const value of [{ c: 1 }, { a: undefined, b: undefined, c: 1 }, { a: 'x', b: null, c: 1 }, { b: 2, c: 1 }]) {
      expect(writerOf(schema)(value)).toBe(zodJson(schema, value));
    }
  });

  it('lets zod write what it cannot follow exactly: unions, rewriting checks, strict objects, records', () => {
    const schema = z.object({
      either: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
      trimmed: z.string().trim(),
      strict: z.strictObject({ k: z.string() }).optional(),
      map: z.record(z.string(), z.object({ v: z.number() })),
    });
    const value = { either: { b: 1, c: 2 }, trimmed: '  x  ', strict: { k: 'y' }, map: { k: { v: 1, w: 2 } } };
    expect(writerOf(schema)(value)).toBe(zodJson(schema, value));
    expect(JSON.parse(writerOf(schema)(value))).toEqual({
      either: { b: 1 },
      trimmed: 'x',
      strict: { k: 'y' },
      map: { k: { v: 1 } },
    });
    expect(() => writerOf(schema)({ ...value, strict: { k: 'y', extra: 1 } })).toThrow(
      "Response doesn't match the schema",
    );
  });

  it("writes the API's real shapes as zod does", () => {
    const user = {
      id: '6968d6c06ea6b95408dd86ba',
      _id: '6968d6c06ea6b95408dd86ba',
      username: 'ann',
      email: 'ann@example.com',
      role: 'user',
      mfaEnabled: false,
      emailVerified: true,
      pendingEmail: null,
      mutedNotices: ['voice_results'],
      plan: {
        name: 'trial',
        billingCycle: null,
        payNowDiscount: false,
        trialEndsAt: '2026-01-16T12:00:00.000Z',
        payNowAvailable: false,
        trialRefused: false,
      },
      subscription: {
        status: null,
        cancelAtPeriodEnd: false,
        stripeSubscriptionId: null,
        currentPeriodEnd: null,
        pendingChange: null,
        paymentDue: null,
      },
      onboarding: { step: 'registered' },
      usageLimits: {
        modelStorageSlotsTotal: 3,
        modelStorageSlotsUsed: 1,
        modelsTrained: [{ amount: 3, expiresAt: '2026-04-15T12:00:00.000Z' }],
        chunkEdits: [],
        shortContent: [],
        activationHours: [],
      },
      credits: 0,
      createdAt: '2026-01-15T12:00:00.000Z',
      passwordHash: 'not to be sent',
    };
    expect(writerOf(meResponseSchema, true)({ user })).toBe(zodJson(meResponseSchema, { user }));
    const voice = {
      _id: '6968d6c06ea6b95408dd86bb',
      name: 'Essays',
      status: 'ready',
      progress: 100,
      isPublic: false,
      createdAt: '2026-01-15T12:00:00.000Z',
      pipeline_id: null,
      userId: 'not listed',
    };
    const list = z.array(voiceSchema);
    expect(writerOf(list, true)([voice, { ...voice, statusMessage: null, etaSeconds: 5 }])).toBe(
      zodJson(list, [voice, { ...voice, statusMessage: null, etaSeconds: 5 }]),
    );
  });

  it('refuses an answer without a required key, as zod did', () => {
    const schema = z.object({ id: z.string(), n: z.number() });
    expect(() => writerOf(schema)({ id: 'x' })).toThrow("Response doesn't match the schema");
  });

  it('with check, refuses what zod refuses, and answers what it encodes', () => {
    const schema = z.object({ n: z.number() });
    expect(() => writerOf(schema, true)({ n: 'not a number' })).toThrow("Response doesn't match the schema");
    expect(writerOf(schema, true)({ n: 1, extra: true })).toBe('{"n":1}');
  });
});
