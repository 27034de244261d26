// The mail server of the e2e run: a real SMTP server (apps/server's test one) on E2E_SMTP_PORT
// that the service sends through, and on E2E_MAIL_PORT a small HTTP page the tests read the
// received messages from (GET /messages), as a person reads their inbox.
import { createServer } from 'node:http';
import { startTestMailServer } from '../apps/server/src/test/mail-server';

const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 8025);
const httpPort = Number(process.env.E2E_MAIL_PORT ?? 8026);

const smtp = await startTestMailServer(smtpPort);
const http = createServer((request, response) => {
  if (request.url === '/health') {
    response.end('ok');
    return;
  }
  if (request.url === '/messages') {
    const messages = smtp.received.map((mail) => ({
      to: (mail.to as { text?: string } | undefined)?.text ?? '',
      subject: mail.subject ?? '',
      text: mail.text ?? '',
      html: typeof mail.html === 'string' ? mail.html : '',
    }));
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(messages));
    return;
  }
  response.statusCode = 404;
  response.end();
});
http.listen(httpPort, '127.0.0.1');
const stop = () => {
  http.close();
  void smtp.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
