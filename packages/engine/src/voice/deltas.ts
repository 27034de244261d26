// A generation that reports its text through a callback (VoiceEngine's onChunk), read as an async
// iterable of text deltas, so callers can stream it with `for await`. A failure of the generation
// is thrown after the deltas that came before it; an aborted signal ends it with the abort reason.
//
// Deltas that arrive while the reader is busy come out together, as one. With `intervalMs`, a
// delta is also held until that long after the previous one went out, gathering what comes
// meanwhile: at hundreds of tokens a second, an event per token costs a stream more than its
// tokens do; at a few tokens a second every delta still goes out as it comes.

export async function* textDeltas(
  signal: AbortSignal | undefined,
  run: (onChunk: (text: string) => void) => Promise<unknown>,
  { intervalMs = 0 }: { intervalMs?: number } = {},
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
  let sentAt = 0;
  while (true) {
    if (pending.length) {
      const wait = sentAt + intervalMs - performance.now();
      // The hold ends early when the generation does: its last words are not kept waiting.
      if (wait > 0 && !done) await Promise.race([holdFor(wait, signal), finished]);
      sentAt = performance.now();
      yield pending.splice(0).join('');
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

/** Waits `ms`, or less if the signal fires. */
function holdFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
