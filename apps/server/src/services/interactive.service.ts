// Interactive writing: the writer and the base model work through questions, an outline
// (long mode) and the sections one by one; each section's draft is rewritten in the Voice. The
// server keeps each session (step, what the writer told it, what was paid); the browser sends the
// session's id, the step it acted on and the writer's input with each action, and gets the next
// state back. Starting a session spends one short content, which pays for its first draft; every
// further draft of a section (the next section's, or a revision) spends one more. A draft none of
// whose rewrite came out in the Voice is given back (decision 37); retrying its parts is free.
import { randomUUID } from 'node:crypto';
import {
  BASE_CHAT_SETTINGS,
  draftTokens,
  outlineChat,
  parseOutline,
  parseQuestions,
  questionsChat,
  SECTION_WORDS,
  SHORT_ANSWER_TOKENS,
  sectionChat,
  sectionContext,
  sessionContext,
} from '@ownvoice/engine';
import {
  ALLOWED_ACTIONS,
  INTERACTIVE_MESSAGES,
  type InteractiveAction,
  type InteractiveSection,
  type InteractiveState,
  interactiveStateSchema,
  MAX_OUTLINE_REVISIONS,
  MAX_PROVIDED_INFO_CHARS,
  newInteractiveState,
  reopenLastSection,
  writerInput,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { InteractiveSessionRow, UserRow, VoiceRow } from '../db/schema.js';
import { AppError, errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import type { InteractiveSessionsRepository } from '../repositories/interactive-sessions.repository.js';
import type { ActivationService } from './activation.service.js';
import type { ConversionService } from './conversion.service.js';
import { retryFailedParts } from './interactive-rewrite.js';
import type { Caller } from './sessions.service.js';
import type { UsageReceipt, UsageService } from './usage.service.js';

/** A session untouched this long is forgotten when its owner starts another. */
const IDLE_SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Actions that draft a section and rewrite it in the Voice: each is one short content. */
const DRAFTING: readonly InteractiveAction[] = ['submit_section_answers', 'revise_section'];

/** Whether any passage of a drafted section is the Voice's: one not failed that holds words. */
const cameOutInVoice = (parts: readonly string[], failed: readonly number[]): boolean =>
  parts.length === 0 || parts.some((part, i) => !failed.includes(i) && part.trim() !== '');

const qa = (questions: readonly string[], answers: readonly string[]): string =>
  questions.map((q, i) => `Q: ${q}\nA: ${answers[i]?.trim() || '(no answer)'}`).join('\n');

/** What the writer has told the session once these answers are added; refused when too long. */
const withAnswers = (info: string, questions: readonly string[], answers: readonly string[]): string => {
  const next = `${info}\n${qa(questions, answers)}`;
  if (next.length > MAX_PROVIDED_INFO_CHARS) throw errors.validation(INTERACTIVE_MESSAGES.tooMuchInfo(next.length));
  return next;
};

/** A step claimed for one request: what it started from and what it spent. */
interface Claim {
  row: InteractiveSessionRow;
  from: InteractiveState;
  receipt: UsageReceipt | undefined;
  drafted: boolean;
}

export class InteractiveService {
  constructor(
    private readonly db: Database,
    private readonly sessions: InteractiveSessionsRepository,
    private readonly conversion: ConversionService,
    private readonly activation: ActivationService,
    private readonly usage: UsageService,
    private readonly inference: InferenceHost,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs one action. `sent` is the client's copy of the session: only its id, step id and the
   * writer's input count (and, to start, its mode, prompt and Voice).
   */
  async next(caller: Caller, sent: InteractiveState, action: InteractiveAction, signal: AbortSignal) {
    const { user } = caller;
    if (!ALLOWED_ACTIONS[sent.step].includes(action)) {
      throw errors.validation(INTERACTIVE_MESSAGES.actionNotAllowed(action, sent.step));
    }
    const claim = action === 'ask_questions' ? await this.start(caller, sent) : await this.claim(caller, sent, action);
    try {
      const voice = await this.activation.awake(caller, claim.from.loraId);
      const next = await this.run(voice, claim.from, action, signal);
      await this.activation.touch(voice.id);
      const state = interactiveStateSchema.parse({
        ...next,
        stepId: randomUUID(),
        history: [...claim.from.history, { step: claim.from.step, action }].slice(-200),
      });
      // Decision 37's one rule: a draft none of whose rewrite came out in the Voice costs nothing.
      // It does not count as a draft, and the short content that paid for it is given back.
      const givenBack = claim.drafted && !cameOutInVoice(state.currentParts, state.currentFailed);
      await this.sessions.update(claim.row.id, {
        state,
        version: claim.row.version + 1,
        updatedAt: this.clock.now(),
        ...(givenBack ? { paid: claim.row.paid - 1, drafts: claim.row.drafts - 1 } : {}),
      });
      // The unit paid at this step, else the one paid before it (at the start) for this draft.
      if (givenBack) await this.usage.refund(user.id, 'shortContent', 1, claim.receipt);
      return state;
    } catch (error) {
      await this.release(user, claim, action);
      throw error;
    }
  }

  /** A new session: its short content is spent before any model work (refused at a balance of 0). */
  private async start({ user, apiKey }: Caller, sent: InteractiveState): Promise<Claim> {
    await this.activation.awake({ user, apiKey }, sent.loraId);
    const now = this.clock.now();
    const id = randomUUID();
    const from: InteractiveState = {
      ...newInteractiveState(sent.mode, sent.request.prompt, sent.loraId),
      requestId: id,
    };
    await this.sessions.pruneIdle(user.id, new Date(now.getTime() - IDLE_SESSION_DAYS * DAY_MS));
    return this.db.transaction(async (tx) => {
      const receipt = await this.usage.consume(user.id, 'shortContent', 1, { tx, apiKeyId: apiKey?.id });
      // The stored step id is a placeholder while the step runs: a second request for it is stale.
      const row = {
        id,
        userId: user.id,
        voiceId: sent.loraId,
        state: { ...from, stepId: randomUUID() },
        version: 1,
        paid: 1,
        drafts: 0,
        createdAt: now,
        updatedAt: now,
      };
      await this.sessions.insert(row, tx);
      return { row, from, receipt, drafted: false };
    });
  }

  /** Takes the session's current step for this request, charging a draft the session has not paid for. */
  private claim({ user, apiKey }: Caller, sent: InteractiveState, action: InteractiveAction): Promise<Claim> {
    return this.db.transaction(async (tx) => {
      const row = sent.requestId ? await this.sessions.lockOwned(tx, sent.requestId, user.id) : undefined;
      const stored = row ? interactiveStateSchema.safeParse(row.state) : undefined;
      if (!row || !stored?.success) throw new AppError(404, 'NOT_FOUND', INTERACTIVE_MESSAGES.unknownSession);
      if (stored.data.stepId !== sent.stepId) throw errors.validation(INTERACTIVE_MESSAGES.staleStep);
      let from = stored.data;
      // "Back to editing" from complete is the browser's; the server follows it on the next action.
      if (from.step === 'complete' && sent.step === 'section_drafted') from = reopenLastSection(from);
      if (!ALLOWED_ACTIONS[from.step].includes(action)) {
        throw errors.validation(INTERACTIVE_MESSAGES.actionNotAllowed(action, from.step));
      }
      const input = writerInput(sent);
      from = {
        ...from,
        ...input,
        skeletonDraft: from.step === 'skeleton_drafted' ? input.skeletonDraft : from.skeletonDraft,
      };
      if (action === 'submit_skeleton_answers')
        withAnswers(from.allProvidedInfo, from.skeletonQueries, from.skeletonAnswers);
      if (action === 'submit_section_answers')
        withAnswers(from.allProvidedInfo, from.currentQueries, from.currentAnswers);
      if (
        action === 'revise_skeleton' &&
        from.history.filter((h) => h.action === 'revise_skeleton').length >= MAX_OUTLINE_REVISIONS
      ) {
        throw errors.validation(INTERACTIVE_MESSAGES.tooManyOutlineRevisions);
      }
      const drafted = DRAFTING.includes(action);
      const receipt =
        drafted && row.drafts >= row.paid
          ? await this.usage.consume(user.id, 'shortContent', 1, { tx, apiKeyId: apiKey?.id })
          : undefined;
      const claimed = {
        ...row,
        version: row.version + 1,
        paid: row.paid + (receipt ? 1 : 0),
        drafts: row.drafts + (drafted ? 1 : 0),
      };
      await this.sessions.update(
        row.id,
        {
          state: { ...stored.data, stepId: randomUUID() },
          version: claimed.version,
          paid: claimed.paid,
          drafts: claimed.drafts,
          updatedAt: this.clock.now(),
        },
        tx,
      );
      return { row: claimed, from, receipt, drafted };
    });
  }

  /** A step that failed: the session goes back to where it was, and what it spent comes back. */
  private async release(user: UserRow, claim: Claim, action: InteractiveAction): Promise<void> {
    if (action === 'ask_questions') {
      await this.sessions.delete(claim.row.id);
    } else {
      await this.sessions.update(claim.row.id, {
        state: claim.row.state,
        version: claim.row.version + 1,
        paid: claim.row.paid - (claim.receipt ? 1 : 0),
        drafts: claim.row.drafts - (claim.drafted ? 1 : 0),
        updatedAt: this.clock.now(),
      });
    }
    if (claim.receipt) await this.usage.refund(user.id, 'shortContent', 1, claim.receipt);
  }

  private async run(
    voice: VoiceRow,
    s: InteractiveState,
    action: InteractiveAction,
    signal: AbortSignal,
  ): Promise<InteractiveState> {
    const prompt = s.request.prompt;
    switch (action) {
      case 'ask_questions': {
        const questions = await this.questions(sessionContext(prompt), signal);
        const base = { ...s, allProvidedInfo: `Request: ${prompt}` };
        if (s.mode === 'long') {
          return { ...base, step: 'awaiting_skeleton_answers', skeletonQueries: questions, skeletonAnswers: [] };
        }
        // Short mode writes one section: the piece itself.
        return {
          ...base,
          step: 'awaiting_section_answers',
          skeletonDraft: [{ title: prompt.slice(0, 120) }],
          currentSectionIndex: 0,
          currentQueries: questions,
          currentAnswers: [],
        };
      }
      case 'submit_skeleton_answers': {
        const info = withAnswers(s.allProvidedInfo, s.skeletonQueries, s.skeletonAnswers);
        const titles = await this.outline(prompt, info, undefined, signal);
        return {
          ...s,
          step: 'skeleton_drafted',
          allProvidedInfo: info,
          skeletonDraft: titles.map((title) => ({ title })),
        };
      }
      case 'revise_skeleton': {
        const current = s.skeletonDraft.map((x) => x.title);
        const titles = await this.outline(prompt, s.allProvidedInfo, { current, change: s.skeletonRevision }, signal);
        return {
          ...s,
          step: 'skeleton_drafted',
          skeletonDraft: titles.map((title) => ({ title })),
          skeletonRevision: '',
        };
      }
      case 'approve_skeleton':
        if (s.skeletonDraft.length === 0) throw errors.validation('The outline has no sections to write.');
        return this.startSection(s, 0, signal);
      case 'submit_section_answers': {
        const info = withAnswers(s.allProvidedInfo, s.currentQueries, s.currentAnswers);
        const drafted = await this.draft(voice, { ...s, allProvidedInfo: info }, undefined, signal);
        return { ...s, ...drafted, step: 'section_drafted', allProvidedInfo: info };
      }
      case 'revise_section': {
        const drafted = await this.draft(voice, s, { current: s.currentDraft, change: s.sectionRevision }, signal);
        return { ...s, ...drafted, step: 'section_drafted', sectionRevision: '' };
      }
      case 'approve_section': {
        const title = s.skeletonDraft[s.currentSectionIndex]?.title ?? '';
        const content = [
          ...s.content,
          {
            title,
            draft: s.currentDraft,
            rephrased: s.currentRephrased,
            parts: s.currentParts,
            failed: s.currentFailed,
          },
        ];
        const nextIndex = s.currentSectionIndex + 1;
        if (nextIndex >= s.skeletonDraft.length) {
          return { ...s, step: 'complete', content, currentQueries: [], currentAnswers: [] };
        }
        return this.startSection({ ...s, content }, nextIndex, signal);
      }
      case 'retry_failed_parts':
        return this.retry(voice, s, signal);
    }
  }

  /**
   * The passages the Voice could not write, rewritten again: the finished sections' and the
   * drafted one's. Free, as Quick Create's retry through Convert is (Convert spends nothing).
   */
  private async retry(voice: VoiceRow, s: InteractiveState, signal: AbortSignal): Promise<InteractiveState> {
    const drafted = s.step === 'section_drafted';
    if (!s.content.some((section) => section.failed.length > 0) && !(drafted && s.currentFailed.length > 0)) {
      throw errors.validation(INTERACTIVE_MESSAGES.nothingToRetry);
    }
    // Each retry samples anew: the retries before it did not come out.
    const variation = s.history.filter((h) => h.action === 'retry_failed_parts').length + 1;
    const again = async <T extends Pick<InteractiveSection, 'rephrased' | 'parts' | 'failed'>>(section: T) =>
      section.failed.length > 0
        ? { ...section, ...(await retryFailedParts(this.conversion, voice, section, variation, signal)) }
        : section;
    const content: InteractiveSection[] = [];
    for (const section of s.content) content.push(await again(section));
    if (!drafted) return { ...s, content };
    const current = await again({ rephrased: s.currentRephrased, parts: s.currentParts, failed: s.currentFailed });
    return {
      ...s,
      content,
      currentRephrased: current.rephrased,
      currentParts: current.parts,
      currentFailed: current.failed,
    };
  }

  private async startSection(s: InteractiveState, index: number, signal: AbortSignal): Promise<InteractiveState> {
    const title = s.skeletonDraft[index]?.title ?? '';
    const questions = await this.questions(sectionContext(s.request.prompt, s.allProvidedInfo, title), signal);
    return {
      ...s,
      step: 'awaiting_section_answers',
      currentSectionIndex: index,
      currentQueries: questions,
      currentAnswers: [],
      currentInputAreas: [],
      currentDraft: '',
      currentRephrased: '',
      currentParts: [],
      currentFailed: [],
    };
  }

  /** Up to three questions whose answers would improve the piece; none when the brief is enough. */
  private async questions(context: string, signal: AbortSignal): Promise<string[]> {
    const base = await this.inference.base();
    const answer = await base.chat(questionsChat(context), {
      ...BASE_CHAT_SETTINGS,
      maxTokens: SHORT_ANSWER_TOKENS,
      signal,
    });
    return parseQuestions(answer);
  }

  private async outline(
    prompt: string,
    info: string,
    revision: { current: string[]; change: string } | undefined,
    signal: AbortSignal,
  ): Promise<string[]> {
    const base = await this.inference.base();
    const answer = await base.chat(outlineChat(prompt, info, revision), {
      ...BASE_CHAT_SETTINGS,
      maxTokens: SHORT_ANSWER_TOKENS,
      signal,
    });
    const titles = parseOutline(answer);
    // A model that gives no usable titles still leaves the writer an outline to edit or revise.
    return titles.length ? titles : (revision?.current ?? [prompt.slice(0, 120)]);
  }

  /** The base model's draft of the current section, and the Voice's rewrite of it. */
  private async draft(
    voice: VoiceRow,
    s: InteractiveState,
    revision: { current: string; change: string } | undefined,
    signal: AbortSignal,
  ): Promise<Pick<InteractiveState, 'currentDraft' | 'currentRephrased' | 'currentParts' | 'currentFailed'>> {
    const base = await this.inference.base();
    const words = SECTION_WORDS[s.mode];
    const messages = sectionChat({
      prompt: s.request.prompt,
      info: s.allProvidedInfo,
      title: s.skeletonDraft[s.currentSectionIndex]?.title ?? s.request.prompt,
      words,
      earlier: s.content,
      revision,
    });
    const draft = (await base.chat(messages, { ...BASE_CHAT_SETTINGS, maxTokens: draftTokens(words), signal })).trim();
    if (!draft) throw errors.engineUnavailable('the model wrote nothing for this section; try again');
    const { text, parts, failed } = await this.conversion.rewriteInParts(voice, draft, signal);
    return { currentDraft: draft, currentRephrased: text, currentParts: parts, currentFailed: failed };
  }
}
