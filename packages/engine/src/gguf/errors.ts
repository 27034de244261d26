/** A model or adapter file that cannot be used, with a message saying why and what to do. */
export class GgufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GgufError';
  }
}
