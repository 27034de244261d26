// A real SMTP server for tests (the smtp-server package, speaking the protocol on a loopback
// port): every message it receives is parsed (mailparser) and kept; it can also refuse the next
// messages with a temporary failure, as a mail server that is down does.
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The one address a received message went to ('' when none). */
export const recipientOf = (mail: ParsedMail): string => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');

export interface TestMailServer {
  url: string;
  received: ParsedMail[];
  /** Resolves with the first message (received already or later) that `match` accepts. */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Refuses the next `count` messages with 451, a temporary failure. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

/** `port` 0 picks a free one. */
export async function startTestMailServer(port = 0): Promise<TestMailServer> {
  const received: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusals > 0) {
        refusals -= 1;
        stream.resume();
        const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
        stream.on('end', () => callback(error));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          for (const wake of waiters) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    received,
    waitFor: (match, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    refuseNext: (count) => {
      refusals = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
