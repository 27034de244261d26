// @vitest-environment happy-dom
// Taking a Voice home from its page: the menu offers its package and one model file with the
// Voice merged in. The model file is built while the person waits, so the button says so and
// takes no second request; the file is saved under the server's name. A Voice on a base model
// this server does not run cannot be merged here, and the menu says why. Only the server is fake.
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_PATTERNS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { testVoice } from '../../../lib/test-voice';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { VoiceDetailsPage } from './VoiceDetailsPage';

afterEach(resetPage);

const baseModel = (onThisServer: 'same' | 'other') => ({
  state: 'recorded' as const,
  name: 'SmolLM2-135M-Instruct',
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  sha256: 'a'.repeat(64),
  bytes: 98_362_432,
  onThisServer,
  serverModel: 'SmolLM2-135M-Instruct',
});

function openVoice(onThisServer: 'same' | 'other') {
  const voice = testVoice({ canDownload: true, baseModel: baseModel(onThisServer) });
  const server = fakeServer();
  server.on('GET', `/api/loras/${voice._id}`, () => json(voice));
  const view = renderWithProviders(
    <Routes>
      <Route path={ROUTE_PATTERNS.voice} element={<VoiceDetailsPage />} />
    </Routes>,
    { user: testUser(), path: `/dashboard/loras/${voice._id}` },
  );
  return { voice, server, ...view };
}

/** What the page hands to the browser's downloads: the file's name and bytes. */
function watchSaves() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:saved';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { blobs, names };
}

describe('Download Voice', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('builds one model file while saying so, then saves it under the server’s name', async () => {
    const { voice, server, person } = openVoice('same');
    const saves = watchSaves();
    let finish: (response: Response) => void = () => undefined;
    server.on('GET', `/api/loras/${voice._id}/merged-model`, () => new Promise<Response>((done) => (finish = done)));

    await person.click(await screen.findByTestId('download-voice'));
    await person.click(await screen.findByRole('menuitem', { name: /One model file \(\.gguf\)/, hidden: true }));
    const button = await screen.findByTestId('download-voice');
    await waitFor(() => expect(button.textContent).toContain('Building the model file…'));
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(await screen.findByText('Building the model file')).toBeTruthy();

    const file = new Uint8Array([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0]);
    finish(
      new Response(file, {
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="Blog-voice-ownvoice.gguf"',
        },
      }),
    );
    await waitFor(() => expect(saves.names).toEqual(['Blog-voice-ownvoice.gguf']));
    expect(new Uint8Array(await (saves.blobs[0] as Blob).arrayBuffer())).toEqual(file);
    await waitFor(() => expect(button.textContent).toContain('Download Voice'));
    expect(server.calls('GET', `/api/loras/${voice._id}/merged-model`)).toHaveLength(1);
  });

  it('saves the package from the same menu', async () => {
    const { voice, server, person } = openVoice('same');
    const saves = watchSaves();
    server.on(
      'GET',
      `/api/loras/${voice._id}/package`,
      () =>
        new Response(new Uint8Array([0x50, 0x4b]), {
          headers: { 'content-disposition': 'attachment; filename="Blog-voice-ownvoice.zip"' },
        }),
    );
    await person.click(await screen.findByTestId('download-voice'));
    await person.click(await screen.findByRole('menuitem', { name: /Voice package \(\.zip\)/, hidden: true }));
    await waitFor(() => expect(saves.names).toEqual(['Blog-voice-ownvoice.zip']));
  });

  it('offers no model file for a Voice on a base model this server does not run, and says why', async () => {
    const { person } = openVoice('other');
    await person.click(await screen.findByTestId('download-voice'));
    const item = await screen.findByRole('menuitem', { name: /One model file/, hidden: true });
    expect(item.hasAttribute('disabled') || item.getAttribute('data-disabled') === 'true').toBe(true);
    expect(item.textContent).toContain('Needs the base model this Voice was trained on');
  });
});
