// What the restored create form says when the upload failed.
import { isApiError } from '../../lib/api-error';

export const CREATE_FAILED = 'Failed to create LoRA';

export function createErrorMessage(error: unknown): string {
  if (!isApiError(error)) return CREATE_FAILED;
  return `Error ${error.status}: ${error.msg || CREATE_FAILED}`;
}
