// POST /api/content/interactive/next on the tiny house model: a short and a long session through
// every transition to complete, every action refused where its step does not allow it, and the
// state checks (version, Voice id, owner, shape).

import { parseOutline, parseQuestions } from '@ownvoice/engine';
import {
  ALLOWED_ACTIONS,
  INTERACTIVE_ACTIONS,
  INTERACTIVE_STEPS,
  type InteractiveAction,
  type InteractiveState,
  interactiveStateSchema,
  newInteractiveState,
} from '@ownvoice/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactiveSessions, usageTranches, type VoiceRow } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let voice: VoiceRow;

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  ({ owner, ownerId, voice, status } = await ownerWithAwakeVoice(ctx));
  expect(status).toBe('active');
}, 300_000);
afterAll(() => ctx.close());

async function step(state: InteractiveState, action: InteractiveAction, client = owner): Promise<InteractiveState> {
  const res = await client.post('/api/content/interactive/next', { state, action });
  expect(res.statusCode, res.body).toBe(200);
  return interactiveStateSchema.parse(res.json().state);
}

const answerAll = (questions: string[]) => questions.map((_, i) => `Answer ${i + 1}: the fair is on Saturday.`);

describe('interactive writing', () => {
  it('runs a short session: questions, answers, a drafted and revised section, complete', async () => {
    let s = newInteractiveState('short', 'A note to parents about the spring fair moving to the field.', voice.id);
    s = await step(s, 'ask_questions');
    expect(s.step).toBe('awaiting_section_answers');
    expect(s.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.skeletonDraft).toHaveLength(1);
    s = await step({ ...s, currentAnswers: answerAll(s.currentQueries) }, 'submit_section_answers');
    expect(s.step).toBe('section_drafted');
    expect(s.currentDraft.length).toBeGreaterThan(0);
    expect(s.currentRephrased.length).toBeGreaterThan(0);
    s = await step({ ...s, sectionRevision: 'Make it shorter.' }, 'revise_section');
    expect(s.step).toBe('section_drafted');
    expect(s.sectionRevision).toBe('');
    s = await step(s, 'approve_section');
    expect(s.step).toBe('complete');
    expect(s.content).toHaveLength(1);
    expect(s.content[0]?.rephrased.length).toBeGreaterThan(0);
    expect(s.history.map((h) => h.action)).toEqual([
      'ask_questions',
      'submit_section_answers',
      'revise_section',
      'approve_section',
    ]);
  });

  it('runs a long session: outline questions, outline, revision, every section, complete', async () => {
    let s = newInteractiveState('long', 'A guide for new volunteers at the spring fair.', voice.id);
    s = await step(s, 'ask_questions');
    expect(s.step).toBe('awaiting_skeleton_answers');
    s = await step({ ...s, skeletonAnswers: answerAll(s.skeletonQueries) }, 'submit_skeleton_answers');
    expect(s.step).toBe('skeleton_drafted');
    expect(s.skeletonDraft.length).toBeGreaterThan(0);
    s = await step({ ...s, skeletonRevision: 'Add a section on parking.' }, 'revise_skeleton');
    expect(s.step).toBe('skeleton_drafted');
    // Two sections are enough to show the loop; the writer may trim the outline before approving.
    s = await step({ ...s, skeletonDraft: [{ title: 'Arriving' }, { title: 'Parking' }] }, 'approve_skeleton');
    expect(s).toMatchObject({ step: 'awaiting_section_answers', currentSectionIndex: 0 });
    s = await step({ ...s, currentAnswers: answerAll(s.currentQueries) }, 'submit_section_answers');
    s = await step(s, 'approve_section');
    expect(s).toMatchObject({ step: 'awaiting_section_answers', currentSectionIndex: 1, currentDraft: '' });
    s = await step({ ...s, currentAnswers: answerAll(s.currentQueries) }, 'submit_section_answers');
    s = await step(s, 'approve_section');
    expect(s.step).toBe('complete');
    expect(s.content.map((c) => c.title)).toEqual(['Arriving', 'Parking']);
  });

  it('refuses every action its step does not allow', async () => {
    const base = newInteractiveState('long', 'Anything', voice.id);
    for (const at of INTERACTIVE_STEPS) {
      for (const action of INTERACTIVE_ACTIONS) {
        if (ALLOWED_ACTIONS[at].includes(action)) continue;
        const res = await owner.post('/api/content/interactive/next', { state: { ...base, step: at }, action });
        expect(res.statusCode, `${action} at ${at}`).toBe(400);
        expect(res.json().msg).toBe(`The action ${action} is not possible at step ${at}.`);
      }
    }
  });

  it('checks the state it is sent', async () => {
    const good = newInteractiveState('short', 'Anything', voice.id);
    const send = (state: unknown, action = 'ask_questions') =>
      owner.post('/api/content/interactive/next', { state, action });
    expect((await send({ ...good, version: 2 })).statusCode).toBe(400);
    expect((await send({ ...good, loraId: 'abc' })).statusCode).toBe(400);
    expect((await send({ ...good, request: { prompt: '  ' } })).statusCode).toBe(400);
    expect((await send({ ...good, step: 'dancing' })).statusCode).toBe(400);
    expect((await send(good, 'dance')).statusCode).toBe(400);
    expect((await send({ ...good, content: 'lots' })).statusCode).toBe(400);
    const stranger = ctx.client();
    await stranger.register();
    await stranger.patch('/api/auth/onboarding', { step: 'training_started' });
    expect(
      (await stranger.post('/api/content/interactive/next', { state: good, action: 'ask_questions' })).statusCode,
    ).toBe(404);
  });
});

describe('reading the model’s answers', () => {
  it('keeps questions only, without list marks, at most three', () => {
    expect(parseQuestions('1. Who reads it?\n- When is the fair?\nNo questions\n* Where?\n4. Why?')).toEqual([
      'Who reads it?',
      'When is the fair?',
      'Where?',
    ]);
    expect(parseQuestions('No questions')).toEqual([]);
  });

  it('turns an outline into section titles', () => {
    expect(parseOutline('## Arriving\n2) Parking\n\n- Stalls')).toEqual(['Arriving', 'Parking', 'Stalls']);
  });
});

/** Sets the owner's short content to exactly `amount`. */
async function setShortContent(amount: number) {
  const { db } = ctx.database;
  await db.delete(usageTranches).where(and(eq(usageTranches.userId, ownerId), eq(usageTranches.type, 'shortContent')));
  if (amount > 0) {
    await db.insert(usageTranches).values({
      id: newId(),
      userId: ownerId,
      type: 'shortContent',
      amount,
      expiresAt: new Date(ctx.clock.now().getTime() + 86_400_000),
      source: 'test',
    });
  }
}
const shortContentLeft = async () =>
  ((await owner.get('/api/auth/me')).json().user.usageLimits.shortContent as { amount: number }[]).reduce(
    (sum, t) => sum + t.amount,
    0,
  );

/** A session as a client could write it, mid-way and never paid for. */
const crafted = (patch: Partial<InteractiveState>): InteractiveState => ({
  ...newInteractiveState('short', 'A note to parents about the spring fair.', voice.id),
  requestId: '7b0c2a52-93a5-4c3e-9a38-0d6c51b2a1f4',
  stepId: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
  skeletonDraft: [{ title: 'The fair' }],
  currentQueries: ['When is it?'],
  currentAnswers: ['Saturday.'],
  currentDraft: 'The fair is on Saturday.',
  currentRephrased: 'The fair is on Saturday.',
  ...patch,
});

describe('paying for interactive writing', () => {
  it('drafts nothing from a state the server did not start, even with nothing left to spend', async () => {
    await setShortContent(0);
    for (const [step, action] of [
      ['awaiting_section_answers', 'submit_section_answers'],
      ['section_drafted', 'revise_section'],
      ['section_drafted', 'approve_section'],
    ] as const) {
      const res = await owner.post('/api/content/interactive/next', { state: crafted({ step }), action });
      expect(res.statusCode, `${action}: ${res.body}`).toBe(404);
      expect(res.json().msg).toBe('This writing session is no longer available. Start a new one.');
    }
    // Starting one needs a short content.
    const start = await owner.post('/api/content/interactive/next', {
      state: newInteractiveState('short', 'A note about the fair.', voice.id),
      action: 'ask_questions',
    });
    expect(start.statusCode).toBe(400);
    expect(start.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'shortContent' });
  });

  it('charges the start (its first draft included) and every further draft; the server keeps the step', async () => {
    await setShortContent(2);
    let s = await step(newInteractiveState('short', 'A note to parents about the fair.', voice.id), 'ask_questions');
    expect(await shortContentLeft()).toBe(1);
    // A client claiming a later step than the session's is refused, and nothing is drafted.
    const skipped = await owner.post('/api/content/interactive/next', {
      state: { ...s, step: 'section_drafted', currentDraft: 'x' },
      action: 'revise_section',
    });
    expect(skipped.statusCode).toBe(400);
    expect(skipped.json().msg).toBe('The action revise_section is not possible at step awaiting_section_answers.');

    s = await step({ ...s, currentAnswers: answerAll(s.currentQueries) }, 'submit_section_answers');
    expect(await shortContentLeft()).toBe(1);
    // The same step sent twice (another tab, a replay) runs once.
    const replay = await owner.post('/api/content/interactive/next', { state: s, action: 'approve_section' });
    expect(replay.statusCode).toBe(200);
    const again = await owner.post('/api/content/interactive/next', { state: s, action: 'approve_section' });
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toContain('has moved on');

    // Back to editing from complete: each rewrite is a new draft, charged.
    s = interactiveStateSchema.parse(replay.json().state);
    const back = { ...s, step: 'section_drafted' as const, sectionRevision: 'Shorter.' };
    await step(back, 'revise_section');
    expect(await shortContentLeft()).toBe(0);
    const unpaid = await owner.post('/api/content/interactive/next', { state: back, action: 'revise_section' });
    expect(unpaid.statusCode).toBe(400);
  });

  it('refuses answers that would make the session too long, with a 400 before any model work', async () => {
    await setShortContent(5);
    const state = crafted({
      step: 'awaiting_section_answers',
      requestId: '1d1e0c4e-2f7a-4a53-8d66-3b5c0e9f7a21',
      allProvidedInfo: `Request: a note.\n${'I told you about the fair. '.repeat(468)}`.slice(0, 12_641),
      currentQueries: ['Who?', 'When?', 'Where?'],
      currentAnswers: ['a'.repeat(2_500), 'b'.repeat(2_500), 'c'.repeat(2_500)],
      currentDraft: '',
      currentRephrased: '',
    });
    await ctx.database.db
      .insert(interactiveSessions)
      .values({ id: state.requestId as string, userId: ownerId, voiceId: voice.id, state, paid: 1 });
    const started = Date.now();
    const res = await owner.post('/api/content/interactive/next', { state, action: 'submit_section_answers' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toMatch(
      /^Your answers come to 20,\d{3} characters in all; a writing session keeps at most 20,000\./,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await shortContentLeft()).toBe(5);
    // The session is where it was: shorter answers go through.
    const shorter = { ...state, currentAnswers: ['Parents.', 'Saturday.', 'The field.'] };
    const next = await owner.post('/api/content/interactive/next', {
      state: shorter,
      action: 'submit_section_answers',
    });
    expect(next.statusCode, next.body).toBe(200);
  });
});
