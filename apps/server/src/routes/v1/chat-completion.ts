// The two answers of POST /v1/chat/completions, in OpenAI's shapes: the whole completion once it is
// written, or its chunks as they come (server-sent events ending with `[DONE]`). A piece the Voice
// wrote counts as sent (its charge is kept) once it is in the answer.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { wholeText } from '../../services/taken-passages.js';
import type { PreparedChat } from '../../services/voice-chat.service.js';
import { clientGoneSignal } from '../client-gone.js';
import { sendEventStream } from '../event-stream.js';
import { openAiAnswer } from './openai-errors.js';
import type { ChatCompletion, ChatCompletionChunk } from './v1.schemas.js';

/** What every answer and chunk of one completion repeats. */
export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export const completionHead = (model: string, now: Date): CompletionHead => ({
  id: `chatcmpl-${randomUUID()}`,
  created: seconds(now),
  model,
});

/** OpenAI's token counts, in the base model's tokens. */
async function usageOf(prepared: PreparedChat, content: string): Promise<ChatCompletion['usage']> {
  const prompt = await prepared.countTokens(prepared.promptText);
  const completion = await prepared.countTokens(content);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The completion whole, once written: a piece in the Voice is as good as sent. */
export async function wholeCompletion(
  prepared: PreparedChat,
  head: CompletionHead,
  reply: FastifyReply,
): Promise<ChatCompletion> {
  const { text, passages, passagesInVoice } = await wholeText(
    prepared.text(clientGoneSignal(reply)),
    (piece) => piece.inVoice && prepared.rewriteSent(),
  );
  return {
    ...head,
    object: 'chat.completion',
    choices: [
      { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    usage: await usageOf(prepared, text),
    ownvoice: { passages, passages_in_voice: passagesInVoice },
  };
}

/** One chunk of the stream. */
const chunkOf =
  (head: CompletionHead) =>
  (
    delta: ChatCompletionChunk['choices'][number]['delta'],
    finish: 'stop' | null,
    extra: Pick<ChatCompletionChunk, 'ownvoice'> = {},
  ): ChatCompletionChunk => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  });

/** The completion as OpenAI's chunks: the role at once, each piece as taken, then `stop`. */
export async function streamCompletion(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedChat,
  head: CompletionHead,
  options: { includeUsage: boolean; stallMs: number },
): Promise<void> {
  const chunk = chunkOf(head);
  await sendEventStream(
    request,
    reply,
    async function* (signal) {
      // Started before anything is sent, so that a client gone at once still settles the charge
      // (an unstarted generator's cleanup never runs).
      const pieces = prepared.text(signal);
      const first = pieces.next();
      try {
        // The role at once, as OpenAI does: the client knows the answer has begun.
        yield chunk({ role: 'assistant', content: '' }, null);
        let content = '';
        for (let step = await first; ; step = await pieces.next()) {
          if (step.done) {
            const { passages, passagesInVoice } = step.value;
            yield chunk({}, 'stop', { ownvoice: { passages, passages_in_voice: passagesInVoice } });
            break;
          }
          content += step.value.text;
          // The stream pulls again only once this chunk was written out.
          yield chunk({ content: step.value.text }, null);
          if (step.value.inVoice) prepared.rewriteSent();
        }
        if (options.includeUsage) yield { ...chunk({}, null), choices: [], usage: await usageOf(prepared, content) };
      } finally {
        // A client gone mid-answer: the rewrite stops and its charge is settled.
        await first.catch(() => undefined);
        await pieces.return(undefined as never);
      }
    },
    'The Voice stopped writing unexpectedly. Please try again.',
    {
      stallMs: options.stallMs,
      errorEvent: ({ code, error }) => openAiAnswer({ status: 500, body: { msg: error, code } }).body,
      closing: '[DONE]',
    },
  );
}
