// The file types a Voice can be trained from, by extension. The list itself lives in
// @ownvoice/shared, so the upload form, the server's check and the extractor read the same one.
import { VOICE_FILE_EXTENSIONS } from '@ownvoice/shared';

export const ACCEPTED_EXTENSIONS = VOICE_FILE_EXTENSIONS;
export type AcceptedExtension = (typeof ACCEPTED_EXTENSIONS)[number];

export type TextFormat = 'txt' | 'md' | 'pdf' | 'docx' | 'epub' | 'html' | 'jsonl';

/** Other spellings taken as one of the accepted extensions. */
export const EXTENSION_ALIASES: Readonly<Record<string, AcceptedExtension>> = { '.htm': '.html' };

/** The format of a file by its name's extension, case-insensitive; null when not accepted. */
export function formatOf(fileName: string): TextFormat | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  const ext = fileName.slice(dot).toLowerCase();
  const accepted = (ACCEPTED_EXTENSIONS as readonly string[]).includes(ext) ? ext : EXTENSION_ALIASES[ext];
  return accepted ? (accepted.slice(1) as TextFormat) : null;
}
