import { convertEventSchema } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { parseEventData } from '../sse';

const parseConvertEvent = (data: string) => parseEventData(data, convertEventSchema);

describe('parseConvertEvent', () => {
  it('reads every event type of the stream', () => {
    expect(
      parseConvertEvent('{"type":"chunk_positions","chunkPositions":[{"start":0,"end":5}],"baseText":"Hello"}'),
    ).toEqual({ type: 'chunk_positions', chunkPositions: [{ start: 0, end: 5 }], baseText: 'Hello' });
    expect(parseConvertEvent('{"type":"chunk","chunkIndex":0,"text":"Hi"}')).toEqual({
      type: 'chunk',
      chunkIndex: 0,
      text: 'Hi',
    });
    expect(parseConvertEvent('{"type":"chunk_reroll","chunkIndex":1,"reason":"too short"}')).toEqual({
      type: 'chunk_reroll',
      chunkIndex: 1,
      reason: 'too short',
    });
    expect(parseConvertEvent('{"type":"complete"}')).toEqual({ type: 'complete' });
    expect(parseConvertEvent('{"type":"error","error":"Voice fell asleep"}')).toEqual({
      type: 'error',
      error: 'Voice fell asleep',
    });
  });

  it('ignores what is not JSON, not an event, or malformed', () => {
    expect(parseConvertEvent('[DONE]')).toBeNull();
    expect(parseConvertEvent('{"type":"heartbeat"}')).toBeNull();
    expect(parseConvertEvent('{"type":"chunk","chunkIndex":-1,"text":"x"}')).toBeNull();
    expect(parseConvertEvent('{"type":"chunk","chunkIndex":0}')).toBeNull();
    expect(parseConvertEvent('null')).toBeNull();
  });
});
