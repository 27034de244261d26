// Every error leaves as `{ msg, code, errors? }` with a 4xx or 5xx status that fits it.
// Schema failures are 400s listing each problem; anything unexpected is logged and is a 500
// whose body says nothing about internals.
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiErrorBody, ErrorCode, ResourceKey } from '@ownvoice/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, usageRanOut } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Whether this server sells usage (billing on, app.ts): what a refusal for usage run out tells
     * the person to do.
     */
    sellsUsage: boolean;
  }
}

/** Fastify's own client errors, mapped onto the closed list with a message a person can act on. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; msg: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_REQUEST', msg: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'MALFORMED_REQUEST',
    msg: 'The request body is empty; send a JSON object or drop the Content-Type header.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    msg: 'Unsupported Content-Type; send application/json.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', msg: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'MALFORMED_REQUEST', msg: 'The Content-Length header is wrong.' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', msg: 'The Content-Type header is malformed.' },
};

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 408) return 'REQUEST_TIMEOUT';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  return 'MALFORMED_REQUEST';
}

/** What an error answers: its status, the body, and for a 429 or 423 when to try again. */
export interface ErrorAnswer {
  status: number;
  body: ApiErrorBody;
  retryAfterSeconds?: number;
}

/**
 * What an AppError says to the person who made `request`. Services word a refusal for usage run
 * out as if usage were for sale; a server that sells none says instead who can raise the limits.
 */
export function messageOf(error: AppError, request: FastifyRequest): string {
  const { limitType, limitTypes } = error.extra ?? {};
  if (error.code !== 'INSUFFICIENT_LIMIT' || request.server.sellsUsage !== false || !limitType) return error.message;
  return usageRanOut((limitTypes ?? [limitType]) as ResourceKey[], false);
}

/** The message of the log line an unexpected error (answered 500) writes. */
export const UNHANDLED_ERROR_LOG = 'unhandled error';

/** The answer to any error a route or hook threw; unexpected ones are logged. */
export function errorAnswer(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  if (error instanceof AppError) {
    const retry = Number(error.details?.retryAfterSeconds);
    // Too many, locked, or a Voice still waking (503): each says when to come back.
    const waits = [429, 423, 503].includes(error.statusCode) && Number.isFinite(retry);
    return {
      status: error.statusCode,
      body: { ...error.toBody(), msg: messageOf(error, request) },
      ...(waits ? { retryAfterSeconds: Math.ceil(retry) } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'body';
    const list = error.validation.map((issue) => ({
      msg: issue.message ?? 'Invalid value',
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || where,
    }));
    return { status: 400, body: { msg: list[0]?.msg ?? 'Invalid request', code: 'VALIDATION_ERROR', errors: list } };
  }
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  const status = error.statusCode ?? 500;
  if (known || (status >= 400 && status < 500)) {
    return {
      status: status >= 400 && status < 500 ? status : 400,
      body: { msg: known?.msg ?? error.message, code: known?.code ?? codeForStatus(status) },
    };
  }
  request.log.error({ err: error }, UNHANDLED_ERROR_LOG);
  return {
    status: 500,
    body: {
      msg: 'Something went wrong on our side. Please try again; if it keeps happening, tell us in the community chat.',
      code: 'INTERNAL_ERROR',
    },
  };
}

/** Sends an error answer in the API's own `{ msg, code }` body. */
export function sendApiError(reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', answer.retryAfterSeconds);
  return reply.status(answer.status).send(answer.body);
}

/**
 * Every error of `app`'s routes answered with `errorAnswer`, sent by `send`: in the API's own
 * body unless a scope speaks another protocol (routes/v1: OpenAI's).
 */
export function registerErrorHandling(
  app: FastifyInstance,
  send: (reply: FastifyReply, answer: ErrorAnswer) => FastifyReply = sendApiError,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => send(reply, errorAnswer(error, request)));
}

/**
 * Errors the router raises before any route or hook runs (a malformed address, a path parameter
 * past its length limit): the same error body as everything else. Passed as Fastify's
 * `frameworkErrors` option.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  sendApiError(reply, frameworkErrorAnswer(error));
}

/** What the router's refusal answers (frameworkErrorHandler; /v1 says it in OpenAI's shape). */
export function frameworkErrorAnswer(error: FastifyError): ErrorAnswer {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return {
    status: tooLong ? 414 : 400,
    body: {
      msg: tooLong
        ? 'A part of the address is far too long to name anything here. Check the link.'
        : 'The address is malformed. Check the link.',
      code: 'MALFORMED_REQUEST',
    },
  };
}

const answered = new WeakSet<Socket>();

/** What the HTTP parser refuses before Fastify sees a request, in the API's error body. */
function clientErrorAnswer(code: string | undefined): { status: number; body: ApiErrorBody } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      body: {
        msg: 'The request took too long to arrive. Check your connection and try again.',
        code: 'REQUEST_TIMEOUT',
      },
    };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      body: {
        msg: "The request's headers are too large, usually from too many cookies. Clear this site's cookies and try again.",
        code: 'MALFORMED_REQUEST',
      },
    };
  }
  return { status: 400, body: { msg: 'The request is malformed and could not be read.', code: 'MALFORMED_REQUEST' } };
}

/**
 * Fastify's `clientErrorHandler`: errors of the HTTP parser and the server's timeouts (bad
 * framing, headers too large, a request that took too long) answer in the same body as
 * everything else, then the connection closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // The parser reports again for each chunk that follows its first error: answered once is enough.
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  // A response already under way cannot be followed by another one on the same connection.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, body } = clientErrorAnswer(error.code);
    const json = JSON.stringify(body);
    answered.add(socket);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
    // Whatever the client still sends is not read; give the answer a moment to leave first.
    setTimeout(() => socket.destroy(), 1000).unref();
    return;
  }
  socket.destroy(error);
}
