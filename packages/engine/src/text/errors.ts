// Why a file gave no text. Each error names its file; uploadErrorMessage turns a batch of them
// into the one line the product shows.

export type TextExtractionErrorCode = 'UNSUPPORTED_TYPE' | 'NUL_CHARACTERS' | 'UNREADABLE';

export class TextExtractionError extends Error {
  constructor(
    readonly code: TextExtractionErrorCode,
    readonly fileName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TextExtractionError';
  }
}

/**
 * The product's message for failed files: NUL characters (a binary or UTF-16 file) give
 * 'Invalid file encoding detected: {files}', files that could not be read 'Error reading some
 * files', and unsupported types 'Unsupported file type: {files}'; the first that applies wins.
 */
export function uploadErrorMessage(errors: readonly TextExtractionError[]): string {
  const named = (code: TextExtractionErrorCode) =>
    errors
      .filter((e) => e.code === code)
      .map((e) => e.fileName)
      .join(', ');
  if (errors.some((e) => e.code === 'NUL_CHARACTERS'))
    return `Invalid file encoding detected: ${named('NUL_CHARACTERS')}`;
  if (errors.some((e) => e.code === 'UNREADABLE')) return 'Error reading some files';
  return `Unsupported file type: ${named('UNSUPPORTED_TYPE')}`;
}
