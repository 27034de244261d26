import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { destinationLine, failedBadge, mailRow, OUTBOX_DESTINATION } from './mail-view';
import { testMessage } from './test-mail-message';

describe('destinationLine', () => {
  it('says an outbox server keeps messages in the data folder, shown in the console', () => {
    expect(destinationLine({ outbox: true, destination: 'the outbox folder /data/outbox' })).toBe(
      "No mail server is set (SMTP_URL): messages are kept in the data folder's outbox, shown here with their links' keys hidden.",
    );
    expect(OUTBOX_DESTINATION).toContain('SMTP_URL');
  });

  it('names the mail server otherwise', () => {
    expect(destinationLine({ outbox: false, destination: 'SMTP smtp.example.com:587' })).toBe(
      'Messages are sent through SMTP smtp.example.com:587.',
    );
  });
});

describe('failedBadge', () => {
  it('is red while any message failed, grey otherwise', () => {
    expect(failedBadge(3)).toEqual({ label: '3 failed', color: 'red' });
    expect(failedBadge(0)).toEqual({ label: '0 failed', color: 'gray' });
    expect(failedBadge(1200).label).toBe('1,200 failed');
  });
});

describe('mailRow', () => {
  it('shows a sent message with when it was queued (and sent, when later), and no retry', () => {
    const row = mailRow(testMessage());
    expect(row).toMatchObject({
      to: 'writer@example.com',
      subject: 'Reset your OwnVoice password',
      status: { label: 'Sent', color: 'teal' },
      attempts: '1',
      error: '—',
      canRetry: false,
      readable: false,
    });
    // Sent within the minute it was queued: one time says both.
    expect(row.time).toBe(formatDateTime('2026-03-04T10:00:00.000Z'));
    expect(mailRow(testMessage({ sentAt: '2026-03-04T10:03:00.000Z' })).time).toBe(
      `${formatDateTime('2026-03-04T10:00:00.000Z')} (sent ${formatDateTime('2026-03-04T10:03:00.000Z')})`,
    );
  });

  it('offers Retry for a failed message, with its error', () => {
    const row = mailRow(testMessage({ status: 'failed', attempts: 5, lastError: '451 Try again later', sentAt: null }));
    expect(row).toMatchObject({
      status: { label: 'Failed', color: 'red' },
      attempts: '5',
      error: '451 Try again later',
      canRetry: true,
    });
    expect(row.time).toBe(formatDateTime('2026-03-04T10:00:00.000Z'));
  });

  it('keeps a queued message as queued, without Retry', () => {
    expect(mailRow(testMessage({ status: 'queued', sentAt: null })).status).toEqual({ label: 'Queued', color: 'blue' });
    expect(mailRow(testMessage({ status: 'queued', sentAt: null })).canRetry).toBe(false);
  });
});
