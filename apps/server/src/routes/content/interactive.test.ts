// POST /api/content/interactive/next on the tiny house model: a short and a long session through
// every transition to complete, every action refused where its step does not allow it, and the
// state checks (version, Voice id, owner, shape).
import {
  ALLOWED_ACTIONS,
  INTERACTIVE_ACTIONS,
  INTERACTIVE_STEPS,
  type InteractiveAction,
  type InteractiveState,
  interactiveStateSchema,
  newInteractiveState,
} from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoiceRow } from '../../db/schema.js';
import { parseOutline, parseQuestions } from '../../services/interactive.service.js';
import { ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let voice: VoiceRow;

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  ({ owner, voice, status } = await ownerWithAwakeVoice(ctx));
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
