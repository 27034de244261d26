// Convert's text is bounded in characters (MAX_CONVERT_CHARS), and JSON may spell a character in up
// to six bytes (`\u00e9`, as Python's json module and `requests` send anything not ASCII): a text
// within the bound is read and judged by its rules, whatever its spelling, and never refused as a
// body too large. Found by Schemathesis (scripts/fuzz-api.sh).
import { CONVERT_MESSAGES, MAX_CONVERT_CHARS } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let client: TestClient;
const UNKNOWN_VOICE = '6650c0ffee0123456789abcd';

/** A body as Python's json.dumps writes it: every character beyond ASCII as a `\uXXXX` escape. */
const escapedJson = (body: unknown): string =>
  JSON.stringify(body).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

beforeAll(async () => {
  ctx = await createTestContext();
  client = ctx.client();
  await client.register();
  await client.patch('/api/auth/onboarding', { step: 'training_started' });
});
afterAll(() => ctx.close());

const post = (route: string, payload: string) =>
  client.request('POST', `/api/loras/${UNKNOWN_VOICE}/${route}`, payload, { 'content-type': 'application/json' });

describe.each(['convert', 'convert-stream'])('POST /api/loras/:id/%s', (route) => {
  it('reads a text of the longest length in its longest spelling, and judges it by its rules', async () => {
    const payload = escapedJson({ text: 'é'.repeat(MAX_CONVERT_CHARS) });
    expect(payload.length).toBeGreaterThan(1024 * 1024);
    const res = await post(route, payload);
    // Read and valid: refused only because the Voice does not exist.
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');

    const over = await post(route, escapedJson({ text: 'é'.repeat(MAX_CONVERT_CHARS + 1) }));
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toContain(CONVERT_MESSAGES.textTooLong(MAX_CONVERT_CHARS));
  });

  it('still refuses a body far beyond any valid one as too large', async () => {
    const res = await post(route, JSON.stringify({ text: 'x'.repeat(4 * 1024 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });
});
