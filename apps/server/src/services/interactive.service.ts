// Interactive writing: the writer and the base model work through questions, an outline
// (long mode) and the sections one by one; each section's draft is rewritten in the Voice. The
// browser keeps the state and sends it with each action; this service checks it, runs the step
// and answers with the next state. Starting a session spends one short content.
import { randomUUID } from 'node:crypto';
import { ALLOWED_ACTIONS, INTERACTIVE_MESSAGES, type InteractiveAction, type InteractiveState } from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { EngineHost } from '../engine/engine-host.js';
import { errors } from '../errors.js';
import type { ActivationService } from './activation.service.js';
import type { ConversionService } from './conversion.service.js';
import type { UsageService } from './usage.service.js';

const MAX_QUESTIONS = 3;
const MAX_SECTIONS = 5;
const SECTION_WORDS = { short: 250, long: 220 } as const;
const TOKENS_PER_WORD = 1.6;

/** Lines of a model's answer without list markers, numbering or heading marks. */
const cleanLines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)]|#+)\s*/, '').trim())
    .filter(Boolean);

export const parseQuestions = (text: string): string[] =>
  cleanLines(text)
    .filter((l) => l.endsWith('?') && l.length <= 300)
    .slice(0, MAX_QUESTIONS);

export const parseOutline = (text: string): string[] =>
  cleanLines(text)
    .filter((l) => l.length <= 120)
    .slice(0, MAX_SECTIONS);

const qa = (questions: readonly string[], answers: readonly string[]): string =>
  questions.map((q, i) => `Q: ${q}\nA: ${answers[i]?.trim() || '(no answer)'}`).join('\n');

export class InteractiveService {
  constructor(
    private readonly conversion: ConversionService,
    private readonly activation: ActivationService,
    private readonly usage: UsageService,
    private readonly engine: EngineHost,
  ) {}

  async next(user: UserRow, state: InteractiveState, action: InteractiveAction, signal: AbortSignal) {
    if (!ALLOWED_ACTIONS[state.step].includes(action)) {
      throw errors.validation(INTERACTIVE_MESSAGES.actionNotAllowed(action, state.step));
    }
    const voice = await this.conversion.awakeVoice(user, state.loraId);
    if (action === 'ask_questions') await this.usage.consume(user.id, 'shortContent', 1);
    try {
      const next = await this.run(voice, state, action, signal);
      await this.activation.touch(voice.id);
      return {
        ...next,
        stepId: randomUUID(),
        history: [...state.history, { step: state.step, action }].slice(-200),
      };
    } catch (error) {
      if (action === 'ask_questions') await this.usage.refund(user.id, 'shortContent', 1);
      throw error;
    }
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
        const questions = await this.questions(`The writer asks for: ${prompt}`, signal);
        const base = { ...s, requestId: randomUUID(), allProvidedInfo: `Request: ${prompt}` };
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
        const info = `${s.allProvidedInfo}\n${qa(s.skeletonQueries, s.skeletonAnswers)}`;
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
        const info = `${s.allProvidedInfo}\n${qa(s.currentQueries, s.currentAnswers)}`;
        const drafted = await this.draft(voice, { ...s, allProvidedInfo: info }, undefined, signal);
        return { ...s, ...drafted, step: 'section_drafted', allProvidedInfo: info };
      }
      case 'revise_section': {
        const drafted = await this.draft(voice, s, { current: s.currentDraft, change: s.sectionRevision }, signal);
        return { ...s, ...drafted, step: 'section_drafted', sectionRevision: '' };
      }
      case 'approve_section': {
        const title = s.skeletonDraft[s.currentSectionIndex]?.title ?? '';
        const content = [...s.content, { title, draft: s.currentDraft, rephrased: s.currentRephrased }];
        const nextIndex = s.currentSectionIndex + 1;
        if (nextIndex >= s.skeletonDraft.length) {
          return { ...s, step: 'complete', content, currentQueries: [], currentAnswers: [] };
        }
        return this.startSection({ ...s, content }, nextIndex, signal);
      }
    }
  }

  private async startSection(s: InteractiveState, index: number, signal: AbortSignal): Promise<InteractiveState> {
    const title = s.skeletonDraft[index]?.title ?? '';
    const questions = await this.questions(
      `The writer is writing: ${s.request.prompt}\nWhat we know:\n${s.allProvidedInfo}\nNext section: ${title}`,
      signal,
    );
    return {
      ...s,
      step: 'awaiting_section_answers',
      currentSectionIndex: index,
      currentQueries: questions,
      currentAnswers: [],
      currentInputAreas: [],
      currentDraft: '',
      currentRephrased: '',
    };
  }

  /** Up to three questions whose answers would improve the piece; none when the brief is enough. */
  private async questions(context: string, signal: AbortSignal): Promise<string[]> {
    const engine = await this.engine.get();
    const answer = await engine.chat(
      [
        {
          role: 'system',
          content: `You help a writer. Ask at most ${MAX_QUESTIONS} short questions, one per line, each ending with a question mark, whose answers would make the writing better. If nothing is missing, answer "No questions".`,
        },
        { role: 'user', content: context },
      ],
      { maxTokens: 120, temperature: 0, repeatPenalty: 1.2, signal },
    );
    return parseQuestions(answer);
  }

  private async outline(
    prompt: string,
    info: string,
    revision: { current: string[]; change: string } | undefined,
    signal: AbortSignal,
  ): Promise<string[]> {
    const engine = await this.engine.get();
    const ask = revision
      ? `Current outline:\n${revision.current.join('\n')}\n\nChange requested: ${revision.change || 'improve it'}`
      : 'Write the outline.';
    const answer = await engine.chat(
      [
        {
          role: 'system',
          content: `You outline pieces of writing. Answer with 2 to ${MAX_SECTIONS} section titles, one per line, nothing else.`,
        },
        { role: 'user', content: `Request: ${prompt}\n${info}\n\n${ask}` },
      ],
      { maxTokens: 120, temperature: 0, repeatPenalty: 1.2, signal },
    );
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
  ): Promise<Pick<InteractiveState, 'currentDraft' | 'currentRephrased'>> {
    const engine = await this.engine.get();
    const title = s.skeletonDraft[s.currentSectionIndex]?.title ?? s.request.prompt;
    const words = SECTION_WORDS[s.mode];
    const earlier = s.content.map((c) => `## ${c.title}\n${c.draft}`).join('\n\n');
    const ask = revision
      ? `Current draft:\n${revision.current}\n\nChange requested: ${revision.change || 'improve it'}\n\nWrite the revised section.`
      : `Write the section "${title}".`;
    const draft = (
      await engine.chat(
        [
          {
            role: 'system',
            content: `You are a clear, capable writer. Write about ${words} words for one section of a larger piece, using what the writer told you. Answer with the section text only.`,
          },
          {
            role: 'user',
            content: `Request: ${s.request.prompt}\n${s.allProvidedInfo}${earlier ? `\n\nSections so far:\n${earlier}` : ''}\n\n${ask}`,
          },
        ],
        { maxTokens: Math.ceil(words * TOKENS_PER_WORD), temperature: 0, repeatPenalty: 1.2, signal },
      )
    ).trim();
    if (!draft) throw errors.engineUnavailable('the model wrote nothing for this section; try again');
    return { currentDraft: draft, currentRephrased: await this.conversion.rewriteWhole(voice, draft, signal) };
  }
}
