// @vitest-environment happy-dom
// Create as a person uses it: Quick mode (prompt in, Generate, the draft and then its rewrite
// streaming, and what the page says when either fails) and Interactive mode (Start, the first
// questions, a refused step). Only the server is fake.
import {
  type ConvertEvent,
  CREATE_MESSAGES,
  type CreateEvent,
  chunkErrorMarker,
  type InteractiveState,
  newInteractiveState,
  type User,
  type Voice,
} from '@ownvoice/shared';
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json, openStream, refusal } from '../../../test/fake-server';
import { fieldValue, PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { SAMPLE_PROMPT } from '../constants';
import { CreateContentPage } from './CreateContentPage';

const VOICE = testVoice({ status: 'active' });
const GENERATE_PATH = '/api/content/generate-stream';
const INTERACTIVE_PATH = '/api/content/interactive/next';
const PROMPT = 'A note on spring hours';
const DRAFT = 'We open early. We close late.';
const DRAFT_POSITIONS: CreateEvent = {
  type: 'chunk_positions',
  stage: 'rephrase',
  chunkPositions: [
    { start: 0, end: 14 },
    { start: 15, end: 29 },
  ],
  baseText: DRAFT,
};

function serve() {
  const server = fakeServer();
  server.on('GET', '/api/loras', () => json<Voice[]>([VOICE]));
  return server;
}

function open(overrides: Partial<User> = {}) {
  return renderWithProviders(<CreateContentPage />, {
    user: { ...testUser(), ...overrides },
    path: PATHS.createContent,
  });
}

async function typePrompt(person: UserEvent, prompt: string) {
  await person.type(screen.getByRole('textbox', { name: 'Prompt' }), prompt);
}

/** A finished Quick run, its second part rewritten as `secondPart`. */
function quickRun(secondPart: string): CreateEvent[] {
  return [
    { type: 'generation_complete', stage: 'content', text: DRAFT },
    DRAFT_POSITIONS,
    { type: 'chunk', stage: 'rephrase', chunkIndex: 0, text: 'Doors open at dawn.' },
    { type: 'chunk', stage: 'rephrase', chunkIndex: 1, text: secondPart },
    { type: 'complete' },
  ];
}

function serveRun(server: ReturnType<typeof serve>, events: readonly CreateEvent[]) {
  server.on('POST', GENERATE_PATH, () => {
    const stream = openStream<CreateEvent>();
    for (const event of events) stream.send(event);
    stream.end();
    return stream.response;
  });
}

afterEach(resetPage);

describe('CreateContentPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('drafts the piece, then rewrites it in the Voice, saying which stage runs', async () => {
    const server = serve();
    const stream = openStream<CreateEvent>();
    server.on('POST', GENERATE_PATH, () => stream.response);
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeTruthy();
    const sent = server.calls('POST', GENERATE_PATH)[0]?.body;
    expect(sent instanceof FormData && [sent.get('prompt'), sent.get('selectedLora')]).toEqual([PROMPT, VOICE._id]);
    stream.send({ type: 'thinking_start', stage: 'content' });
    expect(await screen.findByText('(thinking...)')).toBeTruthy();
    stream.send({ type: 'content_chunk', stage: 'content', text: 'We open early.' });
    expect(await screen.findByText('(drafting...)')).toBeTruthy();
    await waitFor(() => expect(fieldValue('Original draft')).toBe('We open early.'));

    stream.send({ type: 'generation_complete', stage: 'content', text: DRAFT });
    stream.send(DRAFT_POSITIONS);
    stream.send({ type: 'chunk', stage: 'rephrase', chunkIndex: 0, text: 'Doors open at dawn.' });
    expect(await screen.findByRole('button', { name: 'Rephrasing...' })).toBeTruthy();
    stream.send({ type: 'chunk', stage: 'rephrase', chunkIndex: 1, text: 'They shut at dusk.' });
    stream.send({ type: 'complete' });
    stream.end();

    expect(await screen.findByRole('button', { name: 'Generate Content' })).toBeTruthy();
    expect(fieldValue('Original draft')).toBe(DRAFT);
    expect(fieldValue('Rephrased text')).toBe('Doors open at dawn. They shut at dusk.');
    expect(screen.getByRole('button', { name: 'Re-rephrase' }).hasAttribute('disabled')).toBe(false);
  });

  it('asks for a prompt instead of sending an empty one, and forgets the complaint once typing starts', async () => {
    const server = serve();
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Generate Content' }).hasAttribute('disabled')).toBe(false),
    );
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect(screen.getByRole('alert').textContent).toContain(CREATE_MESSAGES.promptRequired);
    expect(server.calls('POST', GENERATE_PATH)).toHaveLength(0);
    await typePrompt(person, 'A');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says the server's reason when it refuses to generate", async () => {
    const server = serve();
    server.on('POST', GENERATE_PATH, () =>
      refusal(503, { msg: 'The writing engine is busy.', code: 'ENGINE_UNAVAILABLE' }),
    );
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect((await screen.findByRole('alert')).textContent).toContain('The writing engine is busy.');
    expect(await screen.findByRole('button', { name: 'Generate Content' })).toBeTruthy();
  });

  it('says nothing was charged when the Voice was put to sleep before any of the rewrite came out', async () => {
    const server = serve();
    serveRun(server, [
      { type: 'content_chunk', stage: 'content', text: DRAFT },
      { type: 'generation_complete', stage: 'content', text: DRAFT },
      DRAFT_POSITIONS,
      { type: 'error', code: 'VOICE_NOT_READY', error: 'This Voice was put to sleep.', charged: 0 },
    ]);
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect((await screen.findByRole('alert')).textContent).toContain('This Voice was put to sleep.');
    expect(fieldValue('Original draft')).toBe(DRAFT);
    expect((await screen.findByTestId('create-charge')).textContent).toBe(
      'Nothing was charged: no part of this draft came out in your Voice, so its short content was given back.',
    );
  });

  it('says one short content was used when the rewrite came out in the Voice', async () => {
    const server = serve();
    serveRun(server, [...quickRun('They shut at dusk.').slice(0, -1), { type: 'complete', charged: 1 }]);
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect((await screen.findByTestId('create-charge')).textContent).toBe('One short content was used for this draft.');
  });

  it('says which parts did not come out in the Voice, and retries just those', async () => {
    const server = serve();
    serveRun(server, quickRun(chunkErrorMarker(1, 'timed out')));
    server.on('POST', `/api/loras/${VOICE._id}/convert-stream`, ({ body }) => {
      const { text } = body as { text: string };
      const stream = openStream<ConvertEvent>();
      stream.send({ type: 'chunk_positions', chunkPositions: [{ start: 0, end: text.length }], baseText: text });
      stream.send({ type: 'chunk', chunkIndex: 0, text: 'They shut at dusk.' });
      stream.send({ type: 'complete' });
      stream.end();
      return stream.response;
    });
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect(await screen.findByText('1 of 2 parts could not be rewritten in your Voice')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Retry failed parts' }));

    await waitFor(() => expect(fieldValue('Rephrased text')).toBe('Doors open at dawn. They shut at dusk.'));
    expect(screen.queryByText('1 of 2 parts could not be rewritten in your Voice')).toBeNull();
    expect(server.calls('POST', `/api/loras/${VOICE._id}/convert-stream`)[0]?.body).toMatchObject({
      text: 'We close late.',
    });
  });

  it('in Interactive mode, starts a session and shows its first questions', async () => {
    const server = serve();
    const asked: InteractiveState = {
      ...newInteractiveState('short', PROMPT, VOICE._id),
      step: 'awaiting_section_answers',
      requestId: 'session-1',
      skeletonDraft: [{ title: PROMPT }],
      currentQueries: ['Who reads it?'],
    };
    server.on('POST', INTERACTIVE_PATH, () => json({ state: asked }));
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await person.click(screen.getByRole('radio', { name: 'Interactive' }));
    expect(screen.queryByRole('button', { name: 'Generate Content' })).toBeNull();
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Start' }));

    expect(await screen.findByRole('textbox', { name: 'Who reads it?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Draft this section' })).toBeTruthy();
    expect(server.calls('POST', INTERACTIVE_PATH)[0]?.body).toMatchObject({
      action: 'ask_questions',
      state: { mode: 'short', request: { prompt: PROMPT }, loraId: VOICE._id },
    });
    // The session's prompt is fixed while it runs.
    expect(screen.getByRole('textbox', { name: 'Prompt' }).hasAttribute('disabled')).toBe(true);
  });

  it('in Interactive mode, says which parts did not come out in the Voice, copies nothing, and retries them', async () => {
    const server = serve();
    const session = { ...newInteractiveState('short', PROMPT, VOICE._id), requestId: 'session-1' };
    const asked: InteractiveState = {
      ...session,
      step: 'awaiting_section_answers',
      stepId: 'step-1',
      skeletonDraft: [{ title: PROMPT }],
      currentQueries: ['Who reads it?'],
    };
    // The server keeps the draft's words for the part the Voice could not write, and says which.
    const drafted: InteractiveState = {
      ...asked,
      step: 'section_drafted',
      stepId: 'step-2',
      currentDraft: DRAFT,
      currentRephrased: 'Doors open at dawn. We close late.',
      currentParts: ['Doors open at dawn.', ' We close late.'],
      currentFailed: [1],
    };
    const retried: InteractiveState = {
      ...drafted,
      stepId: 'step-3',
      currentRephrased: 'Doors open at dawn. They shut at dusk.',
      currentParts: ['Doors open at dawn.', ' They shut at dusk.'],
      currentFailed: [],
    };
    const answers = { ask_questions: asked, submit_section_answers: drafted, retry_failed_parts: retried };
    server.on('POST', INTERACTIVE_PATH, ({ body }) =>
      json({ state: answers[(body as { action: keyof typeof answers }).action] }),
    );
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await person.click(screen.getByRole('radio', { name: 'Interactive' }));
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Start' }));
    await person.type(await screen.findByRole('textbox', { name: 'Who reads it?' }), 'Regulars');
    await person.click(screen.getByRole('button', { name: 'Draft this section' }));

    expect(await screen.findByText('1 of 2 parts could not be rewritten in your Voice')).toBeTruthy();
    expect(screen.getByTestId('interactive-copy').hasAttribute('disabled')).toBe(true);
    await person.click(screen.getByRole('button', { name: 'Retry failed parts' }));

    await waitFor(() => expect(screen.queryByText('1 of 2 parts could not be rewritten in your Voice')).toBeNull());
    expect(screen.getByTestId('interactive-copy').hasAttribute('disabled')).toBe(false);
    expect(server.calls('POST', INTERACTIVE_PATH).at(-1)?.body).toMatchObject({
      action: 'retry_failed_parts',
      state: { requestId: 'session-1', stepId: 'step-2' },
    });
  });

  it("in Interactive mode, says the server's reason when a step is refused and stays at the start", async () => {
    const server = serve();
    server.on('POST', INTERACTIVE_PATH, () => refusal(503, { msg: 'The base model is busy.' }));
    const { person } = open();

    await screen.findByRole('textbox', { name: 'Voice' });
    await person.click(screen.getByRole('radio', { name: 'Interactive' }));
    await typePrompt(person, PROMPT);
    await person.click(screen.getByRole('button', { name: 'Start' }));

    expect((await screen.findByRole('alert')).textContent).toContain('The base model is busy.');
    expect(screen.getByRole('button', { name: 'Start' })).toBeTruthy();
  });

  it('fills in the sample prompt for the quickstart, and a finished generation wraps the tutorial up', async () => {
    const server = serve();
    serveRun(server, quickRun('They shut at dusk.'));
    const { person, advanceOnboarding } = open({ onboarding: { step: 'convert_quickstart_complete' } });

    expect(await screen.findByText('Create your first piece')).toBeTruthy();
    await waitFor(() => expect(fieldValue('Prompt')).toBe(SAMPLE_PROMPT));
    await person.click(screen.getByRole('button', { name: 'Generate Content' }));

    expect(await screen.findByText("You're all set")).toBeTruthy();
    expect(screen.queryByText('Create your first piece')).toBeNull();
    expect(advanceOnboarding).toHaveBeenCalledWith('create_quickstart_complete');
  });
});
