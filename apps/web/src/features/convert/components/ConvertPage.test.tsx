// @vitest-environment happy-dom
// Convert as a person uses it: text in, Convert, the Voice's rewrite streaming out part by part,
// and what the page says when a part or the whole conversion fails. Only the server is fake.
import { CONVERT_MESSAGES, type ConvertEvent, type User, type Voice } from '@ownvoice/shared';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json, openStream, refusal } from '../../../test/fake-server';
import { fieldValue, PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { ConvertPage } from './ConvertPage';

// The editor is a lazy chunk (Tiptap): loaded before any page renders, so no test's first wait
// covers transforming it, however busy the machine.
beforeAll(() => import('./MarkdownEditor'));

const VOICE = testVoice({ status: 'active' });
const STREAM_PATH = `/api/loras/${VOICE._id}/convert-stream`;
const TEXT = 'First part. Second part.';
const POSITIONS: ConvertEvent = {
  type: 'chunk_positions',
  chunkPositions: [
    { start: 0, end: 11 },
    { start: 12, end: 24 },
  ],
  baseText: TEXT,
};
const NEXT_YEAR = new Date(Date.now() + 365 * 86_400_000).toISOString();
const WRITER = testUser({
  usageLimits: { ...testUser().usageLimits, chunkEdits: [{ amount: 50, expiresAt: NEXT_YEAR }] },
});

function serve(voices: Voice[] = [VOICE]) {
  const server = fakeServer();
  server.on('GET', '/api/loras', () => json<Voice[]>(voices));
  return server;
}

function open(user: User = WRITER) {
  return renderWithProviders(<ConvertPage />, { user, path: PATHS.convert });
}

async function typeText(person: UserEvent, text: string) {
  const editor = await screen.findByRole('textbox', { name: 'Text to convert' });
  // On its empty line, as a person clicks: a click on the box's edge puts the caret before that
  // line in happy-dom, and the text would land in a second paragraph.
  await person.click(editor.firstElementChild ?? editor);
  await person.keyboard(text);
}

const convertButton = (name: string) => screen.findByRole('button', { name });

/** The fake proofread: each part's first full stop becomes "!". */
const proofread = ({ body }: { body: unknown }) =>
  json({ editedChunk: (body as { rephrasedChunk: string }).rephrasedChunk.replace('.', '!') });

/** Types the text, ticks the edit pass and converts; returns the person for what comes next. */
async function convertWithEditPass() {
  const { person } = open();
  await typeText(person, TEXT);
  await person.click(screen.getByRole('checkbox', { name: /Edit pass/ }));
  await person.click(await convertButton('Convert'));
  return person;
}

afterEach(resetPage);

describe('ConvertPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('streams the rewrite in part by part, then offers Convert again', async () => {
    const server = serve();
    const stream = openStream<ConvertEvent>();
    server.on('POST', STREAM_PATH, () => stream.response);
    const { person } = open();

    await typeText(person, TEXT);
    await person.click(await convertButton('Convert'));

    expect(await convertButton('Converting...')).toBeTruthy();
    expect(server.calls('POST', STREAM_PATH)[0]?.body).toEqual({ loraId: VOICE._id, text: TEXT });
    stream.send(POSITIONS);
    stream.send({ type: 'chunk', chunkIndex: 0, text: 'One.' });
    await waitFor(() => expect(fieldValue('Converted text')).toBe('One.'));

    stream.send({ type: 'chunk', chunkIndex: 1, text: 'Two.' });
    stream.send({ type: 'complete' });
    stream.end();
    expect(await convertButton('Convert')).toBeTruthy();
    expect(fieldValue('Converted text')).toBe('One. Two.');
    expect(screen.getByRole('button', { name: 'Show chunks (2)' })).toBeTruthy();
  });

  it('says there is nothing to convert instead of sending an empty text', async () => {
    const server = serve();
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Text to convert' });
    await person.click(await convertButton('Convert'));

    expect(screen.getByRole('alert').textContent).toContain(CONVERT_MESSAGES.emptyText);
    expect(server.calls('POST', STREAM_PATH)).toHaveLength(0);
  });

  it('keeps the finished part and says why when the stream fails midway', async () => {
    const server = serve();
    const stream = openStream<ConvertEvent>();
    server.on('POST', STREAM_PATH, () => stream.response);
    const { person } = open();

    await typeText(person, TEXT);
    await person.click(await convertButton('Convert'));
    stream.send(POSITIONS);
    stream.send({ type: 'chunk', chunkIndex: 0, text: 'One.' });
    stream.send({ type: 'chunk', chunkIndex: 1, text: 'Tw' });
    stream.send({ type: 'error', error: 'Your Voice fell asleep.' });
    stream.end();

    expect((await screen.findByRole('alert')).textContent).toContain('Your Voice fell asleep.');
    expect(await convertButton('Convert')).toBeTruthy();
    expect(fieldValue('Converted text')).toContain('One.');
    expect(fieldValue('Converted text')).not.toContain('Tw');
  });

  it("says the server's reason when it refuses the conversion", async () => {
    const server = serve();
    server.on('POST', STREAM_PATH, () =>
      refusal(503, { msg: 'The writing engine is busy. Try again in a minute.', code: 'ENGINE_UNAVAILABLE' }),
    );
    const { person } = open();

    await typeText(person, TEXT);
    await person.click(await convertButton('Convert'));

    expect((await screen.findByRole('alert')).textContent).toContain('The writing engine is busy.');
    expect(await convertButton('Convert')).toBeTruthy();
  });

  it('proofreads each part when the edit pass is ticked, and can show the plain rewrite', async () => {
    const server = serve();
    server.on('POST', STREAM_PATH, () => {
      const stream = openStream<ConvertEvent>();
      stream.send(POSITIONS);
      stream.send({ type: 'chunk', chunkIndex: 0, text: 'One.' });
      stream.send({ type: 'chunk', chunkIndex: 1, text: 'Two.' });
      stream.send({ type: 'complete' });
      stream.end();
      return stream.response;
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.on('POST', '/api/loras/edit-chunk', async (request) => {
      await held;
      return proofread(request);
    });
    const person = await convertWithEditPass();

    expect(await convertButton('Editing...')).toBeTruthy();
    release();
    expect(await convertButton('Convert')).toBeTruthy();
    await waitFor(() => expect(fieldValue('Converted text')).toBe('One! Two!'));
    await person.click(screen.getByRole('button', { name: 'View rephrased' }));
    expect(fieldValue('Converted text')).toBe('One. Two.');
    expect(server.calls('POST', '/api/loras/edit-chunk')).toHaveLength(2);
  });

  it('keeps a part the Voice could not rewrite in both views, says so, and retries just it', async () => {
    const server = serve();
    const MARKER = '[Error converting chunk 2: it repeated itself]';
    server.on('POST', STREAM_PATH, ({ body }) => {
      const { text } = body as { text: string };
      const stream = openStream<ConvertEvent>();
      if (text === TEXT) {
        stream.send(POSITIONS);
        stream.send({ type: 'chunk', chunkIndex: 0, text: 'One.' });
        stream.send({ type: 'chunk', chunkIndex: 1, text: MARKER });
      } else {
        // The retry sends the failed part alone.
        stream.send({ type: 'chunk_positions', chunkPositions: [{ start: 0, end: text.length }], baseText: text });
        stream.send({ type: 'chunk', chunkIndex: 0, text: 'Two.' });
      }
      stream.send({ type: 'complete' });
      stream.end();
      return stream.response;
    });
    server.on('POST', '/api/loras/edit-chunk', proofread);
    const person = await convertWithEditPass();

    const failures = await screen.findByTestId('rewrite-failures');
    expect(failures.textContent).toContain('1 of 2 parts could not be rewritten in your Voice');
    await waitFor(() => expect(fieldValue('Converted text')).toBe(`One! ${MARKER}`));
    expect(screen.getByRole('button', { name: 'Show chunks (2), 1 not rewritten' })).toBeTruthy();
    expect(server.calls('POST', '/api/loras/edit-chunk')).toHaveLength(1);

    await person.click(within(failures).getByRole('button', { name: 'Retry failed parts' }));
    await waitFor(() => expect(fieldValue('Converted text')).toBe('One! Two!'));
    expect(screen.queryByTestId('rewrite-failures')).toBeNull();
    const retry = server.calls('POST', STREAM_PATH)[1]?.body as { text: string; variation: number };
    expect(retry.text).toBe('Second part.');
    expect(retry.variation).toBeGreaterThan(0);
    // Only the retried part is proofread again.
    expect(server.calls('POST', '/api/loras/edit-chunk')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Show chunks (2)' })).toBeTruthy();
  });

  it('shows the tour, then offers the sample text for a first conversion, then says what comes next', async () => {
    const server = serve();
    server.on('POST', STREAM_PATH, ({ body }) => {
      const { text } = body as { text: string };
      const stream = openStream<ConvertEvent>();
      stream.send({ type: 'chunk_positions', chunkPositions: [{ start: 0, end: text.length }], baseText: text });
      stream.send({ type: 'chunk', chunkIndex: 0, text: 'In my words.' });
      stream.send({ type: 'complete' });
      stream.end();
      return stream.response;
    });
    const { person, advanceOnboarding } = open({ ...WRITER, onboarding: { step: 'activation_tour_complete' } });

    await screen.findByText('Step 1: pick an awake Voice');
    expect(screen.queryByTestId('convert-quickstart')).toBeNull();
    await person.click(screen.getByRole('button', { name: 'Close convert tour' }));
    const quickstart = await screen.findByTestId('convert-quickstart');
    await person.click(within(quickstart).getByRole('button', { name: 'Use sample text' }));
    expect(screen.getByRole('textbox', { name: 'Text to convert' }).textContent).toContain(
      'Why small businesses should start a blog',
    );
    await person.click(await convertButton('Convert'));

    expect(await screen.findByText('Your first conversion')).toBeTruthy();
    expect(advanceOnboarding).toHaveBeenCalledWith('convert_quickstart_complete');
  });

  it('says no Voice is awake, and keeps Convert off', async () => {
    serve([testVoice({ status: 'ready' })]);
    open();

    expect(await screen.findByText(CONVERT_MESSAGES.noAwakeVoices)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Convert' }).hasAttribute('disabled')).toBe(true);
  });
});
