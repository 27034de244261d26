// What a person does once in the browser before a program of theirs works with a key alone: sign
// up, confirm the address from the mail, pass onboarding's first step, make an API key and, if
// asked, a webhook endpoint (webhooks are managed signed in only). Done here over HTTP as the
// browser does it (CSRF cookie and header, decision 2) against a server whose mail goes to its data
// folder's outbox (no SMTP_URL). Used by the API journey's test and by scripts/fuzz-api.sh:
//   npx tsx scripts/api-journey/account.ts --base URL --outbox DIR --username NAME --scopes a,b
//     [--server-pid PID] [--rate-limit N] [--webhook URL]
// prints the account as JSON: { email, password, key, webhookSecret? }.
import { readdir, readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

export interface AccountOptions {
  /** The server, e.g. http://127.0.0.1:8080. */
  base: string;
  /** Its data folder's outbox, where sign-up's confirmation mail lands. */
  outbox: string;
  username: string;
  scopes: string[];
  /** The server's process: waiting for it stops if it dies. */
  serverPid?: number;
  rateLimitPerMinute?: number;
  /** A webhook endpoint told of every training event. */
  webhookUrl?: string;
  /** How long the server and its base model may take to be ready. */
  readySeconds?: number;
}

export interface Account {
  email: string;
  password: string;
  key: string;
  webhookSecret?: string;
}

const PASSWORD = 'Passw0rd-journey';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the service answers and its base model is ready (writing before it is a 503). */
async function waitReady(base: string, serverPid: number | undefined, deadline: number): Promise<void> {
  for (;;) {
    if (serverPid !== undefined) {
      try {
        process.kill(serverPid, 0);
      } catch {
        throw new Error('the server stopped while starting');
      }
    }
    const engine = await fetch(`${base}/api/public/engine`).then(
      (res) => (res.ok ? (res.json() as Promise<{ state?: string }>) : null),
      () => null,
    );
    if (engine?.state === 'ready') return;
    if (Date.now() > deadline) throw new Error(`the base model is not ready in time: ${JSON.stringify(engine)}`);
    await sleep(500);
  }
}

/** A signed-in browser's calls: the CSRF cookie and header, and the session once there is one. */
async function browserSession(base: string) {
  const csrf = await fetch(`${base}/api/csrf-token`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  let session: string | undefined;
  return async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
    if (session) headers.authorization = `Bearer ${session}`;
    const res = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body ?? {}) });
    const answer = (await res.json()) as T & { token?: string };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    session ??= answer.token;
    return answer;
  };
}

/** The confirmation link's token from the outbox, as its owner would click it. */
async function confirmationToken(outbox: string, email: string, deadline: number): Promise<string> {
  for (;;) {
    for (const file of (await readdir(outbox).catch(() => [])).filter((name) => name.endsWith('.json'))) {
      const mail = JSON.parse(await readFile(`${outbox}/${file}`, 'utf8')) as { to?: string; text?: string };
      const token = mail.to === email ? /[?&]token=([^&\s]+)/.exec(mail.text ?? '')?.[1] : undefined;
      if (token) return decodeURIComponent(token);
    }
    if (Date.now() > deadline) throw new Error(`no confirmation mail to ${email} in ${outbox}`);
    await sleep(250);
  }
}

export async function signUpWithKey(options: AccountOptions): Promise<Account> {
  const deadline = Date.now() + (options.readySeconds ?? 120) * 1000;
  await waitReady(options.base, options.serverPid, deadline);
  const call = await browserSession(options.base);
  const email = `${options.username}@example.com`;
  await call('POST', '/api/auth/register', { username: options.username, email, password: PASSWORD });
  // A key is made only from a confirmed account, and Convert and Create open after onboarding's
  // first step.
  await call('POST', '/api/auth/email/verify', { token: await confirmationToken(options.outbox, email, deadline) });
  await call('PATCH', '/api/auth/onboarding', { step: 'training_started' });
  // Making a key or a webhook asks for the password again (either outlives the session).
  const { secret: key } = await call<{ secret: string }>('POST', '/api/auth/api-keys', {
    name: options.username,
    scopes: options.scopes,
    currentPassword: PASSWORD,
    ...(options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {}),
  });
  if (!options.webhookUrl) return { email, password: PASSWORD, key };
  const { secret: webhookSecret } = await call<{ secret: string }>('POST', '/api/auth/webhooks', {
    url: options.webhookUrl,
    events: ['voice.training.succeeded', 'voice.training.failed', 'voice.training.cancelled'],
    currentPassword: PASSWORD,
  });
  return { email, password: PASSWORD, key, webhookSecret };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      outbox: { type: 'string' },
      username: { type: 'string' },
      scopes: { type: 'string' },
      'server-pid': { type: 'string' },
      'rate-limit': { type: 'string' },
      webhook: { type: 'string' },
    },
  });
  if (!values.base || !values.outbox || !values.username || !values.scopes) {
    console.error(
      'usage: account.ts --base URL --outbox DIR --username NAME --scopes a,b [--server-pid PID] [--rate-limit N] [--webhook URL]',
    );
    process.exit(2);
  }
  const account = await signUpWithKey({
    base: values.base,
    outbox: values.outbox,
    username: values.username,
    scopes: values.scopes.split(','),
    ...(values['server-pid'] ? { serverPid: Number(values['server-pid']) } : {}),
    ...(values['rate-limit'] ? { rateLimitPerMinute: Number(values['rate-limit']) } : {}),
    ...(values.webhook ? { webhookUrl: values.webhook } : {}),
  });
  console.log(JSON.stringify(account));
}
