// Reads the multipart body of POST /loras (name, text, files) as it arrives: each file streams
// to its own file in a temporary folder, never whole into memory. Per-file and total sizes are
// enforced while streaming; what breaks a rule is reported with the spec's messages.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  hasAcceptedExtension,
  MAX_FILE_BYTES,
  MAX_PASTED_CHARS,
  MAX_TOTAL_UPLOAD_BYTES,
  VOICE_MESSAGES,
} from '@ownvoice/shared';
import type { FastifyRequest } from 'fastify';
import { AppError, errors } from '../../errors.js';

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

/**
 * Streams the body to `tmpRoot`/<random>/. Throws AppError: 415 when the body is not
 * multipart, 413 past 50 MB in all, 400 for unaccepted types or files over 10 MB (each listing
 * every offending file). The folder is removed when it throws.
 */
export async function receiveVoiceUpload(
  request: FastifyRequest,
  tmpRoot: string,
  fileField = 'files',
): Promise<VoiceUpload> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the Voice as multipart/form-data (name, text, files).');
  }
  const dir = path.join(tmpRoot, `upload-${randomBytes(8).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  const upload: VoiceUpload = { dir, fields: {}, files: [] };
  const badTypes: string[] = [];
  const tooLarge: string[] = [];
  let total = 0;
  try {
    const parts = request.parts({
      limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 20, fieldSize: MAX_FIELD_BYTES, parts: 250 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw errors.validation(VOICE_MESSAGES.pastedTooLong);
        if (typeof part.value === 'string') upload.fields[part.fieldname] = part.value;
        continue;
      }
      const name = part.filename || 'unnamed file';
      if (part.fieldname !== fileField || !hasAcceptedExtension(name)) {
        if (part.fieldname === fileField) badTypes.push(name);
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
        continue;
      }
      const target = path.join(dir, diskName(upload.files.length, name));
      let bytes = 0;
      part.file.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        total += chunk.length;
        // Stop reading at once rather than writing 50 MB more to disk.
        if (total > MAX_TOTAL_UPLOAD_BYTES) part.file.destroy(errors.uploadTooLarge(TOTAL_TOO_LARGE));
      });
      await pipeline(part.file, createWriteStream(target));
      if (part.file.truncated) {
        tooLarge.push(name);
        await rm(target, { force: true });
        continue;
      }
      upload.files.push({ name, path: target, bytes });
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AppError) throw error;
    throw mapMultipartError(error as { code?: string; statusCode?: number; message?: string });
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

function mapMultipartError(error: { code?: string; statusCode?: number; message?: string }): AppError {
  switch (error.code) {
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return errors.uploadTooLarge(`Too many files or fields in one upload: at most ${MAX_FILES} files.`);
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.uploadTooLarge(TOTAL_TOO_LARGE);
    default:
      return new AppError(400, 'MALFORMED_REQUEST', 'The upload could not be read. Please try again.');
  }
}
