// The one place error bodies are shaped. Every failure leaves as vLLM's ErrorResponse,
// {"error": {"message", "type", "param", "code"}} with `code` the HTTP status, using the types
// and messages vLLM's OpenAI server gives for the same cases (NotFoundError for an unknown model
// or adapter, BadRequestError for a bad request, InvalidUserInput from the LoRA endpoints, the
// status phrase for a schema failure). The one exception is vLLM's too: a request without the
// right bearer key gets {"error": "Unauthorized"}.
import { STATUS_CODES } from 'node:http';
import { GgufError, VoiceNotAwakeError } from '@ownvoice/engine';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: number };
}

export class OpenAIError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'OpenAIError';
  }

  get body(): ErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.status } };
  }
}

/** vLLM's answer to a request without the right `Authorization: Bearer` key (its auth middleware's body). */
export const UNAUTHORIZED_BODY = { error: 'Unauthorized' } as const;

const phrase = (status: number) => STATUS_CODES[status] ?? 'Error';

export const errors = {
  modelNotFound: (model: string) =>
    new OpenAIError(404, 'NotFoundError', `The model \`${model}\` does not exist.`, 'model'),
  badRequest: (message: string, param: string | null = null) => new OpenAIError(400, 'BadRequestError', message, param),
  /** The type vLLM's LoRA endpoints give their refusals. */
  invalidUserInput: (message: string) => new OpenAIError(400, 'InvalidUserInput', message),
  loraNotLoaded: (name: string) => new OpenAIError(404, 'NotFoundError', `The lora adapter '${name}' cannot be found.`),
  loraFileMissing: (name: string, lora_path: string) =>
    new OpenAIError(404, 'NotFoundError', `Loading lora ${name} failed: No adapter found for ${lora_path}`),
  /** A generation whose adapter was unloaded (or reloaded) under it: the model it named is gone. */
  generationStopped: (model: string, reason: string) =>
    new OpenAIError(404, 'NotFoundError', `Generation with \`${model}\` stopped: ${reason}`, 'model'),
  contextTooLong: (limit: number, promptTokens: number, maxTokens?: number) =>
    maxTokens === undefined
      ? errors.badRequest(
          `This model's maximum context length is ${limit} tokens. However, you requested ${promptTokens} tokens in the messages, Please reduce the length of the messages.`,
          'messages',
        )
      : errors.badRequest(
          `This model's maximum context length is ${limit} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
          'max_tokens',
        ),
  internal: (message: string) => new OpenAIError(500, 'InternalServerError', message),
};

/** What Fastify's own refusals (body parsing, limits) say, in vLLM's words where vLLM has them. */
function frameworkError(error: FastifyError): OpenAIError | undefined {
  const status = error.statusCode ?? 500;
  // vLLM validates the media type as part of the request: a 400, not a 415.
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_INVALID_TYPE') {
    return new OpenAIError(400, phrase(400), "Unsupported Media Type: Only 'application/json' is allowed");
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new OpenAIError(413, phrase(413), 'The request body is too large.');
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new OpenAIError(400, phrase(400), `The request body is not valid JSON: ${error.message}`);
  }
  if (status >= 400 && status < 500) return new OpenAIError(status, phrase(status), error.message);
  return undefined;
}

/** A schema failure as vLLM's validation handler words it: a 400 naming the first field (`body.<field>`). */
function validationError(error: FastifyError): OpenAIError | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const where = error.validationContext ?? 'body';
  const problems = error.validation.map((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return { param: field ? `${where}.${field}` : where, message: issue.message ?? 'Invalid value' };
  });
  const label = problems.length === 1 ? 'error' : 'errors';
  const message = `${problems.length} validation ${label}:\n${problems.map((p) => `  ${p.param}: ${p.message}`).join('\n')}`;
  return new OpenAIError(400, phrase(400), message, problems[0]?.param ?? null);
}

/**
 * Any failure as the error to answer with. Unexpected ones are reported through `logUnexpected`
 * and answered as a bare 500, saying nothing about internals.
 */
export function toOpenAIError(error: unknown, logUnexpected: (error: unknown) => void = () => {}): OpenAIError {
  if (error instanceof OpenAIError) return error;
  if (error instanceof GgufError) return errors.badRequest(error.message);
  if (error instanceof VoiceNotAwakeError) return errors.generationStopped(error.voiceId, error.reason);
  const fastify = error as FastifyError;
  const known = validationError(fastify) ?? frameworkError(fastify);
  if (known) return known;
  logUnexpected(error);
  return errors.internal('The inference server failed to answer this request.');
}
