// Errors under /v1 in OpenAI's shape, so the `openai` SDK and the tools built on it raise their
// usual error classes: `{ error: { message, type, param, code } }`, with the status deciding the
// class. `code` is the service's own closed list (errors.ts), `type` OpenAI's word for the status.
// Running out of short content is OpenAI's "insufficient_quota": a 429 that clients must not
// retry, said with `x-should-retry: false`, which the SDK obeys before its own retry rule.
import type { ErrorCode } from '@ownvoice/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors.js';
import { allowAnyOrigin } from '../../plugins/cors.js';
import { type ErrorAnswer, errorAnswer, frameworkErrorAnswer } from '../../plugins/error-handler.js';
import type { OpenAiErrorBody } from './v1.schemas.js';

/** Codes OpenAI has a word of its own for, said in it: clients check `code` for these. */
const OPENAI_CODES: Partial<Record<ErrorCode, { code: string; type: string }>> = {
  MODEL_NOT_FOUND: { code: 'model_not_found', type: 'invalid_request_error' },
};

function typeFor(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** An answer of plugins/error-handler.ts as OpenAI words it; the status moves for a quota. */
export function openAiAnswer({ status, body }: ErrorAnswer): { status: number; body: OpenAiErrorBody } {
  const quota = body.code === 'INSUFFICIENT_LIMIT';
  const own = body.code ? OPENAI_CODES[body.code] : undefined;
  return {
    status: quota ? 429 : status,
    body: {
      error: {
        message: body.msg,
        type: own?.type ?? (quota ? 'insufficient_quota' : typeFor(status)),
        param: body.errors?.[0]?.path ?? null,
        code: own?.code ?? body.code ?? 'INTERNAL_ERROR',
      },
    },
  };
}

/** Sends an error answer in OpenAI's shape. */
export function sendOpenAiError(reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  const { status, body } = openAiAnswer(answer);
  if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', answer.retryAfterSeconds);
  if (body.error.type === 'insufficient_quota') reply.header('x-should-retry', 'false');
  return reply.status(status).send(body);
}

/**
 * The router's refusals under /v1 (app.ts's frameworkErrors), in OpenAI's shape and readable from
 * any origin as every /v1 answer is. A model id too long for the router is a model not there.
 */
export function sendOpenAiFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  allowAnyOrigin(reply);
  const path = request.url.split('?')[0] ?? '';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH' && path.startsWith('/v1/models/')) {
    sendOpenAiError(reply, errorAnswer(errors.modelNotFound(path.slice('/v1/models/'.length)), request));
    return;
  }
  sendOpenAiError(reply, frameworkErrorAnswer(error));
}
