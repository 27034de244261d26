// Reads the multipart body of POST /loras (name, text, files) as it arrives: each file streams
// to its own file in a temporary folder, never whole into memory. Per-file and total sizes are
// enforced while streaming, text fields included; what breaks a rule is reported with the
// spec's messages.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
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
import { AppError, errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';

export interface UploadedFileOnDisk {
  /** The name the person gave the file (for messages). */
  name: string;
  /** Where it was written. */
  path: string;
  bytes: number;
}

export interface VoiceUpload {
  /** The temporary folder holding the files; remove it when done. */
  dir: string;
  fields: Record<string, string>;
  files: UploadedFileOnDisk[];
}

/** Most files one upload may carry; far above what a person picks, low enough to bound work. */
const MAX_FILES = 200;
/** Pasted text is at most 2,000,000 characters of up to 4 UTF-8 bytes each. */
const MAX_FIELD_BYTES = MAX_PASTED_CHARS * 4;

/** The text fields a form takes, and the most bytes any one of them may hold. */
interface UploadForm {
  fields: readonly string[];
  fieldBytes: number;
}

/**
 * The forms that upload, by the field their files travel in: POST /loras (name, text, files),
 * POST /loras/count-characters (file) and POST /content/generate-stream (prompt, format,
 * selectedLora, referenceFile). Any other field is refused.
 */
const FORMS: Record<string, UploadForm> = {
  files: { fields: ['name', 'text'], fieldBytes: MAX_FIELD_BYTES },
  file: { fields: [], fieldBytes: 1024 },
  referenceFile: { fields: Object.keys(generateFieldsSchema.shape), fieldBytes: MAX_PROMPT_CHARS * 4 },
};

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

const unknownField = (name: string, form: UploadForm, fileField: string): AppError =>
  errors.validation(
    `This upload does not take a field named "${name.slice(0, 40)}". Send only ${[...form.fields, fileField].map((f) => `"${f}"`).join(', ')}.`,
  );

/**
 * Streams the body to `tmpRoot`/<random>/. Throws AppError: 415 when the body is not
 * multipart, 429 when too many uploads are under way, 413 past 50 MB in all (text fields
 * included), 400 for a field the form does not take, unaccepted types or files over 10 MB (each
 * listing every offending file). The folder is removed when it throws, and when the
 * connection is cut (the server cuts one whose body stalls).
 */
export async function receiveVoiceUpload(
  request: FastifyRequest,
  tmpRoot: string,
  fileField = 'files',
): Promise<VoiceUpload> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the Voice as multipart/form-data (name, text, files).');
  }
  const form = FORMS[fileField] ?? { fields: [], fieldBytes: 1024 };
  const release = request.server.uploadSlots.take(authOf(request).user.id);
  const dir = path.join(tmpRoot, `upload-${randomBytes(8).toString('hex')}`);
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
        fields: form.fields.length + 1,
        fieldSize: form.fieldBytes,
        parts: MAX_FILES + form.fields.length + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!form.fields.includes(part.fieldname)) throw unknownField(part.fieldname, form, fileField);
        if (Object.hasOwn(upload.fields, part.fieldname)) {
          throw errors.validation(`The field "${part.fieldname}" was sent twice; send it once.`);
        }
        if (part.valueTruncated) throw errors.validation(fieldTooLong(part.fieldname));
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (overTotal(Buffer.byteLength(value))) throw errors.uploadTooLarge(TOTAL_TOO_LARGE);
        upload.fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== fileField) throw unknownField(part.fieldname, form, fileField);
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
  if (problem) {
    await rm(dir, { recursive: true, force: true });
    throw errors.validation(problem);
  }
  return upload;
}

function fieldTooLong(field: string): string {
  if (field === 'text') return VOICE_MESSAGES.pastedTooLong;
  if (field === 'prompt') return CREATE_MESSAGES.promptTooLong;
  return `The field "${field}" is too long.`;
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
