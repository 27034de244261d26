// A message of the console's outbox for tests, with `changes`.
import type { AdminMailMessage } from '@ownvoice/shared';

export const testMessage = (changes: Partial<AdminMailMessage> = {}): AdminMailMessage => ({
  id: '6f1c2b9e-4d3a-4c5b-9a8e-1f2d3c4b5a69',
  to: 'writer@example.com',
  kind: 'password_reset',
  subject: 'Reset your OwnVoice password',
  status: 'sent',
  attempts: 1,
  lastError: null,
  createdAt: '2026-03-04T10:00:00.000Z',
  sentAt: '2026-03-04T10:00:02.000Z',
  readable: false,
  ...changes,
});
