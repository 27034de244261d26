/** A form rule broken before anything was sent; its message is shown as is. */
export class FormError extends Error {
  override name = 'FormError';
}
