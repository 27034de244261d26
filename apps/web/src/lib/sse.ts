// A reader for text/event-stream bodies: the `data:` payload of each event, in order, however the
// network splits or joins the bytes. Follows the EventSource rules that matter here: lines end in
// LF, CR or CRLF; a blank line ends an event; several data lines join with LF; lines starting with
// ':' are comments; other fields (event, id, retry) are ignored.
import type { z } from 'zod';

export class SseDataParser {
  #buffer = '';
  #data: string[] = [];

  /** Feeds decoded text; returns the payloads of the events it completed. */
  feed(text: string): string[] {
    this.#buffer += text;
    const events: string[] = [];
    let start = 0;
    for (;;) {
      const lf = this.#buffer.indexOf('\n', start);
      const cr = this.#buffer.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      let next = end + 1;
      if (this.#buffer[end] === '\r') {
        // A CR at the very end may be the first half of a CRLF still on its way.
        if (end === this.#buffer.length - 1) break;
        if (this.#buffer[end + 1] === '\n') next = end + 2;
      }
      this.#line(this.#buffer.slice(start, end), events);
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  /** The stream ended: a last line or event without its terminator still counts. */
  end(): string[] {
    const events: string[] = [];
    const rest = this.#buffer.endsWith('\r') ? this.#buffer.slice(0, -1) : this.#buffer;
    this.#buffer = '';
    if (rest !== '') this.#line(rest, events);
    this.#line('', events);
    return events;
  }

  #line(line: string, events: string[]): void {
    if (line === '') {
      if (this.#data.length > 0) events.push(this.#data.join('\n'));
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.#data.push(value);
  }
}

/** The data payloads of a byte stream, decoded as UTF-8. Cancels the stream when left early. */
export async function* readSseData(stream: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const parser = new SseDataParser();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        yield* parser.feed(decoder.decode());
        yield* parser.end();
        return;
      }
      yield* parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** One `data:` payload as an event of `schema`; null when it is not JSON or not such an event. */
export function parseEventData<E>(data: string, schema: z.ZodType<E>): E | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The events of a stream body, in order; payloads that are not events of `schema` are skipped. */
export async function* readEvents<E>(
  stream: ReadableStream<Uint8Array>,
  schema: z.ZodType<E>,
): AsyncGenerator<E, void, undefined> {
  for await (const data of readSseData(stream)) {
    const event = parseEventData(data, schema);
    if (event !== null) yield event;
  }
}
