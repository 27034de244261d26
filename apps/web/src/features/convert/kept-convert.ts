// What Convert keeps across a checkout round trip or a reload (lib/session/kept-work.ts): the
// editor's text, the edit-pass box and the rewrite with what was typed over it.
import { MAX_CONVERT_CHARS } from '@ownvoice/shared';
import { z } from 'zod';
import type { ConversionState } from '../../lib/rewrite/conversion';
import { keptRewriteOf, keptRewriteSchema, type OutputEdits } from '../../lib/rewrite/kept-rewrite';

export const keptConvertSchema = z.object({
  // The editor may hold more than a conversion takes (the server says so); twice the limit bounds it.
  text: z.string().max(2 * MAX_CONVERT_CHARS),
  editPass: z.boolean(),
  rewrite: keptRewriteSchema.nullable(),
});

export type KeptConvert = z.infer<typeof keptConvertSchema>;

/** What to keep of the page: nothing when nothing was typed and nothing converted. */
export function keptConvertOf(page: {
  text: string;
  editPass: boolean;
  rewrite: ConversionState;
  edits: OutputEdits;
}): KeptConvert | null {
  const rewrite = keptRewriteOf(page.rewrite, page.edits);
  if (page.text.trim() === '' && rewrite === null) return null;
  return { text: page.text, editPass: page.editPass, rewrite };
}
