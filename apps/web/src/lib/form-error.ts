// A form rule broken before anything was sent, and the check that raises it from a shared schema.
import { firstIssueMessage } from '@ownvoice/shared';
import type { z } from 'zod';

/** A form rule broken before anything was sent; its message is shown as is. */
export class FormError extends Error {
  override name = 'FormError';
}

/** The schema's output for `value`, or a FormError with the first broken rule's message. */
export function parseForm<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new FormError(firstIssueMessage(parsed.error));
  return parsed.data;
}
