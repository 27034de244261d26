// A generation that reports its text through a callback (VoiceEngine's onChunk), read as an async
// iterable of text deltas, so callers can stream it with `for await`. A failure of the generation
// is thrown after the deltas that came before it; an aborted signal ends it with the abort reason.

export async function* textDeltas(
  signal: AbortSignal | undefined,
  run: (onChunk: (text: string) => void) => Promise<unknown>,
): AsyncGenerator<string> {
  const pending: string[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: unknown;
  const finished = run((text) => {
    pending.push(text);
    wake?.();
  }).then(
    () => {
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error;
      done = true;
      wake?.();
    },
  );
  while (true) {
    if (pending.length) {
      yield pending.shift() as string;
      continue;
    }
    if (done) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  await finished;
  if (failure) throw failure;
  signal?.throwIfAborted();
}
