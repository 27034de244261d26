// POST /api/content/generate-stream on the tiny house model: the event order of a Quick create
// (thinking, draft, then the Voice's rewrite), the short content it spends, a reference file,
// and the refusals that come before any event.

import { CONTENT_FORMATS, CREATE_MESSAGES, type CreateEvent, createEventSchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, type VoiceRow } from '../../db/schema.js';
import { shortContentLeft } from '../../test/account-state.js';
import { makeDocx } from '../../test/documents.js';
import { embeddedEndpoint } from '../../test/inference.js';
import { ownerWithAwakeVoice, quickVoice } from '../../test/quick-voice.js';
import { createTestContext, type MultipartForm, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let voice: VoiceRow;

const parseEvents = (body: string): CreateEvent[] =>
  body
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => createEventSchema.parse(JSON.parse(block.slice(6))));

const generate = (client: TestClient, form: MultipartForm) => client.upload('/api/content/generate-stream', form);

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  ({ owner, ownerId, voice, status } = await ownerWithAwakeVoice(ctx));
  expect(status).toBe('active');
}, 300_000);
afterAll(() => ctx.close());

describe('POST /api/content/generate-stream', () => {
  it('thinks, drafts, then rewrites the draft in the Voice, and spends one short content', async () => {
    const before = await shortContentLeft(owner);
    const res = await generate(owner, {
      fields: {
        prompt: 'A short note to parents about the spring fair moving to the field.',
        format: 'email',
        selectedLora: voice.id,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseEvents(res.body);
    const types = events.map((e) => e.type);
    // The order of the stages: start, thinking, draft, complete draft, rewrite, complete.
    const at = (t: CreateEvent['type']) => types.indexOf(t);
    expect(at('generation_start')).toBe(0);
    expect(at('thinking_start')).toBeLessThan(at('thinking_end'));
    expect(at('thinking_end')).toBeLessThan(at('content_chunk'));
    expect(at('content_chunk')).toBeLessThan(at('generation_complete'));
    expect(at('generation_complete')).toBeLessThan(at('chunk_positions'));
    expect(types.at(-1)).toBe('complete');

    const complete = events.find((e) => e.type === 'generation_complete');
    const draft = events
      .filter((e) => e.type === 'content_chunk')
      .map((e) => (e.type === 'content_chunk' ? e.text : ''))
      .join('');
    expect(complete).toMatchObject({ stage: 'content', text: draft.trim() });
    const positions = events.find((e) => e.type === 'chunk_positions');
    expect(positions).toMatchObject({ stage: 'rephrase', baseText: draft.trim() });
    expect(events.filter((e) => e.type === 'chunk').every((e) => e.type === 'chunk' && e.stage === 'rephrase')).toBe(
      true,
    );
    expect(await shortContentLeft(owner)).toBe(before - 1);
  });

  it('ends with an error event that carries its code when the model drafts nothing, and charges nothing', async () => {
    const endpoint = await embeddedEndpoint(ctx);
    const original = endpoint.chat;
    // A model that answers every chat with nothing.
    endpoint.chat = async () => '';
    try {
      const before = await shortContentLeft(owner);
      const res = await generate(owner, {
        fields: { prompt: 'A note about the fair.', format: 'email', selectedLora: voice.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      const last = parseEvents(res.body).at(-1);
      expect(last).toMatchObject({ type: 'error', code: 'ENGINE_UNAVAILABLE' });
      expect(await shortContentLeft(owner)).toBe(before);
    } finally {
      endpoint.chat = original;
    }
  });

  it('reads a reference file in any upload format', async () => {
    const res = await generate(owner, {
      fields: {
        prompt: 'Summarise the attached minutes for the newsletter.',
        format: 'newsletter',
        selectedLora: voice.id,
      },
      files: [
        {
          field: 'referenceFile',
          name: 'minutes.docx',
          data: await makeDocx('The committee agreed to move the fair to the field.\n\nGates open at nine.'),
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    // What it was charged comes with the end (create-endings.test.ts holds the rule).
    expect(parseEvents(res.body).at(-1)).toEqual({ type: 'complete', charged: expect.any(Number) });
  });

  it('refuses before any event: no prompt, no Voice, a sleeping Voice, a bad format or reference file', async () => {
    const noPrompt = await generate(owner, { fields: { prompt: '  ', selectedLora: voice.id } });
    expect(noPrompt.statusCode).toBe(400);
    expect(noPrompt.json().msg).toBe(CREATE_MESSAGES.promptRequired);
    const noVoice = await generate(owner, { fields: { prompt: 'Hello' } });
    expect(noVoice.json().msg).toBe(CREATE_MESSAGES.selectVoice);
    const badFormat = await generate(owner, { fields: { prompt: 'Hello', format: 'poem', selectedLora: voice.id } });
    expect(badFormat.statusCode).toBe(400);
    expect(CONTENT_FORMATS).not.toContain('poem');
    const badFile = await generate(owner, {
      fields: { prompt: 'Hello', selectedLora: voice.id },
      files: [{ field: 'referenceFile', name: 'x.exe', data: 'MZ' }],
    });
    expect(badFile.statusCode).toBe(400);
    const asleep = await quickVoice(ctx, ownerId, 'Asleep');
    const sleeping = await generate(owner, { fields: { prompt: 'Hello', selectedLora: asleep.id } });
    expect(sleeping.statusCode).toBe(400);
    expect(sleeping.json().code).toBe('VOICE_NOT_READY');
    const json = await owner.post('/api/content/generate-stream', { prompt: 'Hello', selectedLora: voice.id });
    expect(json.statusCode).toBe(415);
  });

  it('lists every refused field as a refused JSON body does', async () => {
    const res = await generate(owner, { fields: { prompt: '  ', format: 'poem' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: CREATE_MESSAGES.promptRequired, code: 'VALIDATION_ERROR' });
    expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['prompt', 'format', 'selectedLora']);
    expect(res.json().errors[0]).toEqual({ msg: CREATE_MESSAGES.promptRequired, path: 'prompt' });
    expect(res.json().errors[2]).toEqual({ msg: CREATE_MESSAGES.selectVoice, path: 'selectedLora' });
  });

  it('answers the insufficient-resource error with no short content left', async () => {
    await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, ownerId));
    const res = await generate(owner, { fields: { prompt: 'Hello', selectedLora: voice.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'shortContent' });
  });
});
