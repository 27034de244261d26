import { describe, expect, it } from 'vitest';
import { readSseData, SseDataParser } from './sse';

const encoder = new TextEncoder();

function streamOf(parts: readonly (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSseData(stream)) out.push(data);
  return out;
}

describe('SseDataParser', () => {
  it('yields one payload per event', () => {
    const parser = new SseDataParser();
    expect(parser.feed('data: {"a":1}\n\ndata: {"b":2}\n\n')).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('waits for the blank line that ends an event', () => {
    const parser = new SseDataParser();
    expect(parser.feed('data: {"a"')).toEqual([]);
    expect(parser.feed(':1}\n')).toEqual([]);
    expect(parser.feed('\n')).toEqual(['{"a":1}']);
  });

  it('accepts CRLF and CR line ends, even a CRLF split between feeds', () => {
    const parser = new SseDataParser();
    expect(parser.feed('data: one\r\n\r\ndata: two\r')).toEqual(['one']);
    expect(parser.feed('\n\r\n')).toEqual(['two']);
    // A final CR might still become a CRLF: the event ends once the next byte shows it did not.
    expect(parser.feed('data: three\r\r')).toEqual([]);
    expect(parser.feed('data: four\n\n')).toEqual(['three', 'four']);
  });

  it('joins data lines, ignores comments and other fields, and strips one space only', () => {
    const parser = new SseDataParser();
    expect(parser.feed(': keep-alive\n\nevent: message\nid: 7\ndata:  two spaces\ndata:x\ndata\n\n')).toEqual([
      ' two spaces\nx\n',
    ]);
  });

  it('flushes a last event that lacks its blank line', () => {
    const parser = new SseDataParser();
    expect(parser.feed('data: {"type":"complete"}')).toEqual([]);
    expect(parser.end()).toEqual(['{"type":"complete"}']);
    expect(parser.end()).toEqual([]);
  });
});

describe('readSseData', () => {
  it('reads events split across network chunks and several in one chunk', async () => {
    const body =
      'data: {"type":"chunk","text":"a"}\n\ndata: {"type":"chunk","text":"b"}\n\ndata: {"type":"complete"}\n\n';
    const parts = [body.slice(0, 5), body.slice(5, 40), body.slice(40, 41), body.slice(41)];
    expect(await collect(streamOf(parts))).toEqual([
      '{"type":"chunk","text":"a"}',
      '{"type":"chunk","text":"b"}',
      '{"type":"complete"}',
    ]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const bytes = encoder.encode('data: {"text":"café ✓"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside "é"
    expect(await collect(streamOf([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual(['{"text":"café ✓"}']);
  });

  it('cancels the stream when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const data of readSseData(stream)) {
      expect(data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });

  it('passes a read failure on to the caller', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: 1\n\n'));
      },
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const data of readSseData(stream)) seen.push(data);
      })(),
    ).rejects.toThrow('connection reset');
    expect(seen).toEqual(['1']);
  });
});
