// @vitest-environment happy-dom
// Creating a Voice as a person does: the button waits for enough writing; a Voice the server takes
// goes through "Creating Voice..." to its training page, sent as the name and the text pasted; a
// refusal brings the person back to the form with everything they typed and the server's words.
// Only the server is fake.
import type { Voice } from '@ownvoice/shared';
import { screen } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS, ROUTE_PATTERNS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json, refusal } from '../../../test/fake-server';
import { fieldValue, PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { isTempVoiceId } from '../temp-voice-id';
import { CreateVoicePage } from './CreateVoicePage';
import { CreatingVoicePlaceholder } from './CreatingVoicePlaceholder';

afterEach(resetPage);

const WRITING = 'Enough of my own words, written over many evenings by the window. '.repeat(320);

/** The training page's first moment: the placeholder under a temporary id, then the Voice's own id. */
function TrainingRoute() {
  const { id = '' } = useParams();
  return isTempVoiceId(id) ? <CreatingVoicePlaceholder tempId={id} /> : <p data-testid="training-of">{id}</p>;
}

function openCreate() {
  const server = fakeServer();
  const view = renderWithProviders(
    <Routes>
      <Route path={PATHS.createVoice} element={<CreateVoicePage />} />
      <Route path={ROUTE_PATTERNS.voiceTraining} element={<TrainingRoute />} />
    </Routes>,
    { user: testUser({ onboarding: { step: 'tutorial_complete' } }), path: PATHS.createVoice },
  );
  return { server, ...view };
}

async function fillIn(person: ReturnType<typeof openCreate>['person'], text: string) {
  await person.type(await screen.findByRole('textbox', { name: 'Voice name' }), 'Evening essays');
  const box = screen.getByRole('textbox', { name: 'Paste your writing' });
  box.focus();
  await person.paste(text);
}

describe('Create a new Voice', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('waits for enough writing, then sends it and lands on the new Voice’s training page', async () => {
    const { server, person } = openCreate();
    const created = testVoice({ _id: 'cd'.repeat(12), name: 'Evening essays', status: 'training', progress: 0 });
    server.on('POST', '/api/loras', () => json<Voice>(created, 201));
    await fillIn(person, WRITING.slice(0, 5_000));
    expect(screen.getByTestId('create-voice-submit').hasAttribute('disabled')).toBe(true);
    await person.paste(WRITING.slice(5_000));
    await person.click(screen.getByTestId('create-voice-submit'));

    expect((await screen.findByTestId('training-of')).textContent).toBe(created._id);
    const [sent] = server.calls('POST', '/api/loras');
    const form = sent?.body as FormData;
    expect([form.get('name'), form.get('text')]).toEqual(['Evening essays', WRITING]);
  });

  it('brings a refused Voice back to the form with what was typed and the server’s words', async () => {
    const { server, person } = openCreate();
    server.on('POST', '/api/loras', () =>
      refusal(400, {
        msg: 'That writing is mostly one passage repeated: add more of your own.',
        code: 'VALIDATION_ERROR',
      }),
    );
    await fillIn(person, WRITING);
    await person.click(screen.getByTestId('create-voice-submit'));

    expect(await screen.findByText(/mostly one passage repeated/)).toBeTruthy();
    expect(fieldValue('Voice name')).toBe('Evening essays');
    expect(fieldValue('Paste your writing')).toBe(WRITING);
  });
});
