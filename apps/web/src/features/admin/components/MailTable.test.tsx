// The outbox table as the server renders it to HTML (no DOM here): its caption, a named Retry
// button for failed messages only, and a closed row for each message's text on an outbox server
// only, empty until opened (MailCard.test.tsx opens one).
import { describe, expect, it } from 'vitest';
import { renderHtml, textOf } from '../../../lib/test-render';
import { testMessage } from '../test-mail-message';
import { MailTable } from './MailTable';

const messages = [
  testMessage({ id: '00000000-0000-4000-8000-000000000001', readable: true }),
  testMessage({
    id: '00000000-0000-4000-8000-000000000002',
    to: 'stuck@example.com',
    status: 'failed',
    attempts: 5,
    lastError: '451 Try again later',
    sentAt: null,
    readable: true,
  }),
];

describe('MailTable', () => {
  it('names itself, and offers a named Retry for the failed message only', () => {
    const html = renderHtml(
      <MailTable messages={messages.map((m) => ({ ...m, readable: false }))} outbox={false} onRetry={() => {}} />,
    );
    expect(textOf(html)).toContain('The newest 2 messages, newest first.');
    expect(html).toContain('<caption');
    expect(html.match(/>Retry</g)).toHaveLength(1);
    expect(html).toContain('aria-label="Retry &quot;Reset your OwnVoice password&quot; to stuck@example.com"');
    expect(textOf(html)).toContain('451 Try again later');
    // With a mail server, no text is shown (the server sends none either).
    expect(html).not.toContain('admin-mail-text');
  });

  it('offers each message’s text in a row that opens beneath it, on an outbox server, read only when opened', () => {
    const html = renderHtml(<MailTable messages={messages} outbox onRetry={() => {}} />);
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('aria-controls="admin-mail-text-00000000-0000-4000-8000-000000000001"');
    expect(html).toContain('id="admin-mail-text-00000000-0000-4000-8000-000000000001" hidden=""');
    // Nothing asked for yet: no loader, no text.
    expect(html).not.toContain('Loading the message');
    expect(html).toContain(
      'aria-label="Show the text of &quot;Reset your OwnVoice password&quot; to writer@example.com"',
    );
  });

  it('says when there is nothing yet', () => {
    expect(textOf(renderHtml(<MailTable messages={[]} outbox onRetry={() => {}} />))).toContain('No messages yet.');
  });
});
