// Reads the multipart body of an upload form as it arrives: each file streams to its own file in
// a temporary folder, never whole into memory. Per-file and total sizes are enforced while
// streaming, text fields included; once the body is in, the text fields go through the form's
// zod schema the way a JSON body goes through its route schema, so a refusal has the same
// `{ msg, code: 'VALIDATION_ERROR', errors: [{ msg, path }] }` body.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ApiErrorBody,
  CREATE_MESSAGES,
  generateFieldsSchema,
  hasAcceptedExtension,
  MAX_FILE_BYTES,
  MAX_PASTED_CHARS,
  MAX_PROMPT_CHARS,
  MAX_TOTAL_UPLOAD_BYTES,
  VOICE_MESSAGES,
} from '@ownvoice/shared';
import type { FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REQUEST_FOLDER_PREFIXES } from '../../data-folder.js';
import { AppError, errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import { createVoiceFieldsSchema } from './loras.schemas.js';

export interface UploadedFileOnDisk {
  /** The name the person gave the file (for messages). */
  name: string;
  /** Where it was written. */
  path: string;
  bytes: number;
}

export interface VoiceUpload<Fields = Record<string, string>> {
  /** The temporary folder holding the files; remove it when done. */
  dir: string;
  /** The text fields, as the form's schema parsed them. */
  fields: Fields;
  files: UploadedFileOnDisk[];
}

/** Most files one upload may carry; far above what a person picks, low enough to bound work. */
const MAX_FILES = 200;
/** Pasted text is at most 2,000,000 characters of up to 4 UTF-8 bytes each. */
const MAX_FIELD_BYTES = MAX_PASTED_CHARS * 4;

/** A form that uploads: the field its files travel in, its text fields, and their size bound. */
export interface UploadForm<Schema extends z.ZodObject = z.ZodObject> {
  fileField: string;
  /** The text fields; a field it does not name is refused as it arrives. */
  schema: Schema;
  /** The most bytes any one text field may hold. */
  fieldBytes: number;
}

/** The forms that upload: POST /loras, POST /loras/count-characters, POST /content/generate-stream. */
export const FORMS = {
  createVoice: { fileField: 'files', schema: createVoiceFieldsSchema, fieldBytes: MAX_FIELD_BYTES },
  countCharacters: { fileField: 'file', schema: z.object({}), fieldBytes: 1024 },
  generate: { fileField: 'referenceFile', schema: generateFieldsSchema, fieldBytes: MAX_PROMPT_CHARS * 4 },
} satisfies Record<string, UploadForm>;

export const TOTAL_TOO_LARGE =
  'EGAD! Your files add up to more than 50 MB. Please upload at most 50 MB in all (about 2,000,000 characters is plenty).';

/** A file name safe to write: the extension kept, everything else reduced to plain characters. */
const diskName = (index: number, name: string): string => {
  const ext = path
    .extname(name)
    .toLowerCase()
    .replace(/[^a-z.]/g, '');
  return `${String(index).padStart(3, '0')}${ext}`;
};

/**
 * Over-size files must come back truncated rather than fail the request, so that the message
 * can name every file that is too large: register the multipart plugin with these options.
 */
export const MULTIPART_OPTIONS = { throwFileSizeLimit: false } as const;

const unknownField = (name: string, fields: readonly string[], fileField: string): AppError =>
  errors.validation(
    `This upload does not take a field named "${name.slice(0, 40)}". Send only ${[...fields, fileField].map((f) => `"${f}"`).join(', ')}.`,
  );

/**
 * The text fields through the form's schema with the compiler that checks JSON bodies; a refusal
 * is thrown as Fastify throws a body's, so the error handler answers both alike.
 */
function parseFields<Schema extends z.ZodObject>(schema: Schema, fields: Record<string, string>): z.output<Schema> {
  const check = validatorCompiler({ schema, method: 'POST', url: '', httpPart: 'body' }) as (data: unknown) => {
    value?: unknown;
    error?: { message?: string }[];
  };
  const { value, error } = check(fields);
  if (!error) return value as z.output<Schema>;
  throw Object.assign(new Error(error[0]?.message ?? 'Invalid request'), {
    statusCode: 400,
    code: 'FST_ERR_VALIDATION',
    validation: error,
    validationContext: 'body',
  });
}

/**
 * Streams the body to `tmpRoot`/<random>/ and returns the fields as the form's schema parsed
 * them. Refuses with 415 when the body is not multipart, 429 when too many uploads are under
 * way, 413 past 50 MB in all (text fields included), 400 for a field the form does not take,
 * unaccepted types or files over 10 MB (each listing every offending file), then 400 listing
 * each field the schema refuses. The folder is removed when it throws, and when the connection
 * is cut (the server cuts one whose body stalls).
 */
export async function receiveVoiceUpload<Schema extends z.ZodObject>(
  request: FastifyRequest,
  tmpRoot: string,
  form: UploadForm<Schema>,
): Promise<VoiceUpload<z.output<Schema>>> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the Voice as multipart/form-data (name, text, files).');
  }
  const { fileField } = form;
  const fields = Object.keys(form.schema.shape);
  const release = request.server.uploadSlots.take(authOf(request).user.id, request.ip);
  const dir = path.join(tmpRoot, `${REQUEST_FOLDER_PREFIXES.upload}${randomBytes(8).toString('hex')}`);
  const upload: VoiceUpload = { dir, fields: {}, files: [] };
  const badTypes: string[] = [];
  const tooLarge: string[] = [];
  let total = 0;
  const overTotal = (bytes: number): boolean => {
    total += bytes;
    return total > MAX_TOTAL_UPLOAD_BYTES;
  };
  /** Counts a file's bytes as they arrive, and stops it at once past the total. */
  const countFile = (file: Readable): (() => number) => {
    let bytes = 0;
    file.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (overTotal(chunk.length)) file.destroy(errors.uploadTooLarge(TOTAL_TOO_LARGE));
    });
    return () => bytes;
  };
  try {
    await mkdir(dir, { recursive: true });
    const parts = request.parts({
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: MAX_FILES,
        // One more than the form takes, so that an unknown field arrives and can be named.
        fields: fields.length + 1,
        fieldSize: form.fieldBytes,
        parts: MAX_FILES + fields.length + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!fields.includes(part.fieldname)) throw unknownField(part.fieldname, fields, fileField);
        if (Object.hasOwn(upload.fields, part.fieldname)) {
          throw errors.validation(`The field "${part.fieldname}" was sent twice; send it once.`);
        }
        if (part.valueTruncated) throw fieldTooLong(part.fieldname);
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (overTotal(Buffer.byteLength(value))) throw errors.uploadTooLarge(TOTAL_TOO_LARGE);
        upload.fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== fileField) throw unknownField(part.fieldname, fields, fileField);
      const name = part.filename || 'unnamed file';
      if (!hasAcceptedExtension(name)) {
        badTypes.push(name);
        // Skipped bytes count too: an unread file costs the same time to receive.
        countFile(part.file);
        await pipeline(part.file, new Writable({ write: (_chunk, _encoding, done) => done() }));
        continue;
      }
      const target = path.join(dir, diskName(upload.files.length, name));
      const bytes = countFile(part.file);
      await pipeline(part.file, createWriteStream(target));
      if (part.file.truncated) {
        tooLarge.push(name);
        await rm(target, { force: true });
        continue;
      }
      upload.files.push({ name, path: target, bytes: bytes() });
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AppError) throw error;
    throw mapMultipartError(error as { code?: string; statusCode?: number; message?: string });
  } finally {
    release();
  }
  const problem = badTypes.length
    ? VOICE_MESSAGES.invalidTypes(badTypes)
    : tooLarge.length
      ? VOICE_MESSAGES.tooLarge(tooLarge)
      : undefined;
  try {
    if (problem) throw errors.validation(problem);
    return { ...upload, fields: parseFields(form.schema, upload.fields) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A field cut off at its size bound: the message its schema gives past the limit, listed like one. */
function fieldTooLong(field: string): AppError {
  const msg =
    field === 'text'
      ? VOICE_MESSAGES.pastedTooLong
      : field === 'prompt'
        ? CREATE_MESSAGES.promptTooLong
        : `The field "${field}" is too long.`;
  const list: ApiErrorBody['errors'] = [{ msg, path: field }];
  return new AppError(400, 'VALIDATION_ERROR', msg, undefined, list);
}

function mapMultipartError(error: { code?: string; statusCode?: number; message?: string }): AppError {
  switch (error.code) {
    case 'FST_FIELDS_LIMIT':
      return errors.validation('This upload has more fields than the form takes; send each field once.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return errors.uploadTooLarge(`Too many files or fields in one upload: at most ${MAX_FILES} files.`);
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.uploadTooLarge(TOTAL_TOO_LARGE);
    default:
      return new AppError(400, 'MALFORMED_REQUEST', 'The upload could not be read. Please try again.');
  }
}
