// Interactive writing whose rewrite in the Voice failed: as Quick Create, the failed passages are
// reported (`currentFailed`, a section's `failed`) and keep the draft's words, never an error
// marker in a section or the finished piece; retrying rewrites just them, for free.
import {
  CHUNK_ERROR_PREFIX,
  type InteractiveAction,
  type InteractiveState,
  interactiveStateSchema,
  newInteractiveState,
} from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoiceRow } from '../../db/schema.js';
import { InteractiveSessionsRepository } from '../../repositories/interactive-sessions.repository.js';
import { ConversionService } from '../../services/conversion.service.js';
import { InteractiveService } from '../../services/interactive.service.js';
import { shortContentLeft, userRow } from '../../test/account-state.js';
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

async function step(state: InteractiveState, action: InteractiveAction): Promise<InteractiveState> {
  const res = await owner.post('/api/content/interactive/next', { state, action });
  expect(res.statusCode, res.body).toBe(200);
  return interactiveStateSchema.parse(res.json().state);
}

/** The app's interactive writing, with a Voice whose every rewrite is rejected while `failing`. */
function interactiveWith(judge: { failing: boolean }): InteractiveService {
  const { services, inference } = ctx.app.platform;
  const conversion = new ConversionService(services.activation, services.usage, inference, {
    maxAttempts: 2,
    preset: undefined,
    judge: () => (judge.failing ? { ok: false, reason: 'it was much longer than the original' } : { ok: true }),
  });
  const sessions = new InteractiveSessionsRepository(ctx.database.db);
  return new InteractiveService(
    ctx.database.db,
    sessions,
    conversion,
    services.activation,
    services.usage,
    inference,
    ctx.clock,
  );
}

const noMarker = (state: InteractiveState) => {
  const texts = [
    state.currentRephrased,
    ...(state.currentParts ?? []),
    ...state.content.flatMap((c) => [c.rephrased, ...(c.parts ?? [])]),
  ];
  for (const text of texts) expect(text).not.toContain(CHUNK_ERROR_PREFIX);
};

describe('an interactive section whose rewrite failed', () => {
  it('reports the failed parts with the draft’s words, never a marker, and retries just them', async () => {
    const judge = { failing: true };
    const interactive = interactiveWith(judge);
    const caller = { user: await userRow(ctx, ownerId), apiKey: null };
    const signal = new AbortController().signal;

    const atStart = await shortContentLeft(owner);
    let s = newInteractiveState('short', 'A welcome note for new volunteers at the community garden.', voice.id);
    s = await step(s, 'ask_questions');
    expect(await shortContentLeft(owner)).toBe(atStart - 1);
    const answers = s.currentQueries.map(() => 'They meet on Saturdays at nine.');
    s = await interactive.next(caller, { ...s, currentAnswers: answers }, 'submit_section_answers', signal);
    expect(s.step).toBe('section_drafted');
    noMarker(s);
    // Every passage failed, and says so.
    expect(s.currentFailed.length).toBeGreaterThan(0);
    expect(s.currentFailed).toEqual(s.currentFailed.map((_, i) => i));
    expect(s.currentParts.join('')).toBe(s.currentRephrased);
    // The section reads as the draft did.
    expect(s.currentRephrased.trim()).toBe(s.currentDraft.trim());
    // Nothing came out in the Voice, so the draft costs nothing: its short content is given back,
    // in the ledger.
    expect(await shortContentLeft(owner)).toBe(atStart);
    const ledger = (await owner.get('/api/plans/ledger')).json().entries as { resource: string; reason: string }[];
    expect(ledger.filter((entry) => entry.resource === 'shortContent' && entry.reason === 'refund')).toHaveLength(1);

    // Approved as it is, the finished piece still says which parts failed, and holds no marker.
    s = await step(s, 'approve_section');
    expect(s.step).toBe('complete');
    expect(s.content[0]?.failed.length).toBeGreaterThan(0);
    noMarker(s);

    // Retried at complete with a Voice that writes now: just those parts, and free.
    const before = await shortContentLeft(owner);
    judge.failing = false;
    s = await interactive.next(caller, s, 'retry_failed_parts', signal);
    expect(s.step).toBe('complete');
    expect(s.content[0]?.failed).toEqual([]);
    expect(s.content[0]?.parts.join('')).toBe(s.content[0]?.rephrased);
    noMarker(s);
    expect(await shortContentLeft(owner)).toBe(before);

    // Nothing failed is nothing to retry.
    const again = await owner.post('/api/content/interactive/next', { state: s, action: 'retry_failed_parts' });
    expect(again.statusCode).toBe(400);
  }, 180_000);

  it('charges the next draft that comes out in the Voice, once', async () => {
    const judge = { failing: true };
    const interactive = interactiveWith(judge);
    const caller = { user: await userRow(ctx, ownerId), apiKey: null };
    const signal = new AbortController().signal;

    const atStart = await shortContentLeft(owner);
    let s = newInteractiveState('short', 'A note on the garden’s new opening hours.', voice.id);
    s = await step(s, 'ask_questions');
    const answers = s.currentQueries.map(() => 'From nine until noon, every Saturday.');
    s = await interactive.next(caller, { ...s, currentAnswers: answers }, 'submit_section_answers', signal);
    expect(await shortContentLeft(owner)).toBe(atStart);
    // The revision comes out in the Voice: it is the draft the session pays for.
    judge.failing = false;
    s = await interactive.next(caller, { ...s, sectionRevision: 'Shorter, please.' }, 'revise_section', signal);
    expect(s.currentFailed).toEqual([]);
    expect(await shortContentLeft(owner)).toBe(atStart - 1);
  }, 180_000);
});
