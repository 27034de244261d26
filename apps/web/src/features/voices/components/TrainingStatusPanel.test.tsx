// The training panel as the server renders it to HTML (no DOM here): the stage in words, the
// percent and the time left from the server's estimate, then that the Voice is ready.
import { MantineProvider } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { testVoice } from '../../../lib/test-voice';
import { TrainingStatusPanel } from './TrainingStatusPanel';

/** The panel's text for a Voice as one answer of its query gave it. */
function panelText(voice: Voice): string {
  const query = { isPending: false, isError: false, data: voice } as UseQueryResult<Voice>;
  const html = renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <TrainingStatusPanel query={query} />
      </MemoryRouter>
    </MantineProvider>,
  );
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
}

describe('TrainingStatusPanel', () => {
  it('shows the stage, the percent and the time left while the Voice trains', () => {
    const text = panelText(
      testVoice({ name: 'Jargon', status: 'training', stage: 'train', progress: 57, etaSeconds: 170 }),
    );
    expect(text).toContain('Learning your style');
    expect(text).toContain('57%');
    expect(text).toContain('About 3 minutes left');
    expect(text).not.toContain('20 to 40');
  });

  it('says it is estimating before the run has a pace, and counts seconds under a minute', () => {
    expect(panelText(testVoice({ status: 'training', stage: 'pairs', progress: 5, etaSeconds: null }))).toContain(
      'Estimating the time left…',
    );
    expect(panelText(testVoice({ status: 'training', stage: 'evaluate', progress: 88, etaSeconds: 38 }))).toContain(
      'About 40 seconds left',
    );
  });

  it('says the Voice is ready once training ends', () => {
    const text = panelText(testVoice({ name: 'Jargon', status: 'ready', progress: 100 }));
    expect(text).toContain('Jargon is ready!');
    expect(text).not.toMatch(/seconds left|minutes? left|Estimating/);
  });
});
