// Operator commands run on the server's machine: `npm run admin -- <command>`. They open the
// service's database as configured (the same environment as the server) and, on the embedded
// database, take the data folder like the server does, so the server must be stopped first.
import { parseArgs } from 'node:util';
import { emailSchema, firstIssueMessage, usernameSchema } from '@ownvoice/shared';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig } from './config.js';
import { claimDataFolder, DataFolderInUseError } from './data-folder.js';
import { type DatabaseHandle, openDatabase, pgliteDir } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { keepFilesPrivate } from './security/private-files.js';
import { SuperAdminError, SuperAdminService } from './services/super-admin.service.js';

const USAGE = `Usage: npm run admin -- create-super-admin --email <address> [--username <name>]

  Creates an account as super admin, or makes an existing account super admin (give that
  account's password). The password is asked for on a terminal without being shown, or read
  from the first line of standard input when it is piped:
    printf '%s\\n' "$PASSWORD" | npm run admin -- create-super-admin --email owner@example.com
  On the embedded database (no DATABASE_URL) stop the server first: only one process at a time
  may use the data folder.`;
/** A password line is at most 128 characters; anything much longer on stdin is a mistake. */
const MAX_STDIN_BYTES = 64 * 1024;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  // It writes to the embedded database's files like the server does: privately.
  keepFilesPrivate();
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    console.log(USAGE);
    return 0;
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nFix the variables above (see the Configuration table in README.md).`);
      return 1;
    }
    throw error;
  }
  try {
    claimDataFolder(config, 'the OwnVoice server or another admin command');
  } catch (error) {
    if (error instanceof DataFolderInUseError) {
      console.error(`${error.message}\nStop the server first, run this command, then start the server again.`);
      return 1;
    }
    throw error;
  }

  let database: DatabaseHandle;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl, maxConnections: 2 }
        : { kind: 'pglite', dataDir: pgliteDir(config.dataDir) },
    );
    await runMigrations(database);
  } catch (error) {
    const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the data folder ${config.dataDir}`;
    console.error(`Could not open the database (${where}): ${(error as Error).message}`);
    return 1;
  }
  try {
    const service = new SuperAdminService(database.db, systemClock, config.starterAllowance);
    const exists = await service.exists(parsed.email);
    const password = process.stdin.isTTY
      ? await promptPassword(
          exists ? `Password of ${parsed.email}: ` : `Password for the new account ${parsed.email}: `,
          !exists,
        )
      : await readPasswordLine();
    const { outcome, user } = await service.createOrPromote({ ...parsed, password });
    const what = {
      created: `Created ${user.username} (${user.email}) as super admin.`,
      promoted: `${user.username} (${user.email}) is now a super admin.`,
      already: `${user.username} (${user.email}) was already a super admin.`,
    }[outcome];
    console.log(`${what}\nLog in and turn on two-factor on the account page: the admin console asks for it.`);
    return 0;
  } catch (error) {
    if (error instanceof SuperAdminError || error instanceof UsageError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

function parseCommand(argv: string[]): 'help' | { email: string; username: string | undefined } {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, username: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help || positionals.length === 0) return 'help';
  if (positionals[0] !== 'create-super-admin' || positionals.length > 1) {
    throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
  }
  if (values.email === undefined) throw new UsageError('--email is required.');
  const email = emailSchema.safeParse(values.email);
  if (!email.success) throw new UsageError(`--email: ${firstIssueMessage(email.error)}`);
  if (values.username !== undefined) {
    const username = usernameSchema.safeParse(values.username);
    if (!username.success) throw new UsageError(`--username: ${firstIssueMessage(username.error)}`);
  }
  return { email: email.data, username: values.username };
}

/** The first line of standard input (a script or test pipes the password in). */
async function readPasswordLine(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new UsageError('Standard input is too long for a password: give one line.');
    chunks.push(buffer);
  }
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  if (!line) throw new UsageError('No password on standard input: pipe one line with the password.');
  return line;
}

/** Asks on the terminal without echoing what is typed; a new password is asked twice. */
async function promptPassword(question: string, confirm: boolean): Promise<string> {
  const first = await promptHidden(question);
  if (!first) throw new UsageError('No password given.');
  if (confirm && (await promptHidden('Repeat the password: ')) !== first) {
    throw new UsageError('The passwords do not match: run the command again.');
  }
  return first;
}

function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  // Echo off before the question shows, so nothing typed after it is ever shown.
  stdin.setRawMode(true);
  process.stderr.write(question);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          // Ctrl-C: raw mode turns it into a character, so leave as the signal would.
          finish();
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') value = Array.from(value).slice(0, -1).join('');
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`The admin command failed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
