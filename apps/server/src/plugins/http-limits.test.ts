// Slow, stalled and oversized requests over real sockets: the server bounds how long a client
// may hold a connection and an upload's files, limits uploads in flight, and answers early
// refusals in the API's body in a way the client actually receives.
import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, encodeMultipart, type MultipartForm, type TestContext } from '../test/test-app.js';

let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext({
    // A pace no body here falls behind: the tests of the pace have their own server below.
    http: {
      requestTimeoutMs: 4000,
      headersTimeoutMs: 1000,
      bodyIdleTimeoutMs: 500,
      bodyMinBytesPerSecond: 1,
      bodyGraceMs: 60_000,
    },
    uploads: { perUser: 2, perIp: 100, total: 3 },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(() => ctx.close());

const uploadsTmp = () => path.join(ctx.config.dataDir, 'tmp');
const uploadFolders = (): string[] => {
  try {
    return readdirSync(uploadsTmp()).filter((name) => name.startsWith('upload-'));
  } catch {
    return [];
  }
};

/** Headers a signed-in browser sends with a state-changing request. */
async function signedIn(): Promise<Record<string, string>> {
  const client = ctx.client();
  await client.register();
  return { ...(await client.csrfHeaders()), authorization: `Bearer ${client.token}` };
}

/** Sends `head` and `body` on a raw socket; resolves with everything the server sent once it closes. */
function rawExchange(text: string, { keepOpen = false } = {}): { socket: net.Socket; reply: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(text);
  const reply = new Promise<string>((resolve) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
  });
  if (!keepOpen) socket.end();
  return { socket, reply };
}

/** The status and body of a raw HTTP/1.1 response. */
function parseRaw(raw: string): { status: number; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body };
}

/** The status and parsed JSON body of a raw HTTP/1.1 response. */
function parseResponse(raw: string): { status: number; body: unknown } {
  const { status, body } = parseRaw(raw);
  return { status, body: body ? JSON.parse(body) : undefined };
}

/**
 * Opens a multipart upload that sends its headers and part of a file, then stalls, or with
 * `trickle` goes on sending a little at a time: slow, but alive.
 */
function openUpload(headers: Record<string, string>, url = '/api/loras', { trickle = false } = {}) {
  const counting = url.endsWith('/count-characters');
  const { payload, contentType } = encodeMultipart({
    fields: counting ? {} : { name: 'Stalled' },
    files: [{ field: counting ? 'file' : 'files', name: 'a.txt', data: 'x'.repeat(600_000) }],
  });
  const head =
    `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n` +
    `${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(head);
  socket.write(payload.subarray(0, 300_000));
  let sent = 300_000;
  const timer = trickle
    ? setInterval(() => {
        if (sent >= payload.length - 2000) return;
        socket.write(payload.subarray(sent, sent + 1000));
        sent += 1000;
      }, 100)
    : undefined;
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Date.now());
    }),
  );
  return { socket, closed };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe('refusals made before any route runs, in the API body', () => {
  it('answers an unsupported body type with a 415', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { ...(await ctx.client().csrfHeaders()), 'content-type': 'application/xml' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ msg: expect.any(String), code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers headers that are too large with a 431 in the API body', async () => {
    const { reply } = rawExchange(
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
    );
    const { status, body } = parseResponse(await reply);
    expect(status).toBe(431);
    expect(body).toEqual({ msg: expect.stringContaining('headers are too large'), code: 'MALFORMED_REQUEST' });
  });

  it('answers a request whose headers never finish with a 408 in the API body', async () => {
    const { reply } = rawExchange('GET /api/health HTTP/1.1\r\nHost: localhost\r\n', { keepOpen: true });
    const { status, body } = parseResponse(await reply);
    expect(status).toBe(408);
    expect(body).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });
});

describe('stalled uploads', () => {
  it('cuts an upload whose body stops arriving and deletes its files', async () => {
    const headers = await signedIn();
    const before = uploadFolders().length;
    const started = Date.now();
    const upload = openUpload(headers);
    expect(await until(() => uploadFolders().length > before, 2000)).toBe(true);
    const closedAt = await Promise.race([upload.closed, new Promise<number>((r) => setTimeout(() => r(0), 5000))]);
    upload.socket.destroy();
    expect(closedAt, 'the server never cut the stalled upload').toBeGreaterThan(0);
    expect(closedAt - started).toBeLessThan(4000);
    expect(await until(() => uploadFolders().length === before, 2000)).toBe(true);
  });

  it('refuses one upload more than a user may have in flight, and more than the server takes in all', async () => {
    const headers = await signedIn();
    const stalled = [
      openUpload(headers, '/api/loras/count-characters', { trickle: true }),
      openUpload(headers, '/api/loras', { trickle: true }),
    ];
    try {
      expect(await until(() => uploadFolders().length >= 2, 2000)).toBe(true);
      const form: MultipartForm = { files: [{ field: 'file', name: 'a.txt', data: 'hello' }] };
      const { payload, contentType } = encodeMultipart(form);
      const third = await ctx.app.inject({
        method: 'POST',
        url: '/api/loras/count-characters',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ code: 'RATE_LIMITED', msg: expect.stringContaining('wait for one') });

      const other = await signedIn();
      stalled.push(openUpload(other, '/api/loras', { trickle: true }));
      expect(await until(() => uploadFolders().length >= 3, 2000)).toBe(true);
      const another = await signedIn();
      const full = await ctx.app.inject({
        method: 'POST',
        url: '/api/loras/count-characters',
        headers: { ...another, 'content-type': contentType },
        payload,
      });
      expect(full.statusCode).toBe(429);
      expect(full.json().msg).toContain('many uploads');
    } finally {
      for (const upload of stalled) upload.socket.destroy();
    }
    // Cut uploads give their folders and their slots back.
    expect(await until(() => uploadFolders().length === 0, 3000)).toBe(true);
    const { payload, contentType } = encodeMultipart({ files: [{ field: 'file', name: 'a.txt', data: 'hello' }] });
    const countAgain = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/loras/count-characters',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
    let again = await countAgain();
    for (let i = 0; i < 20 && again.statusCode === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await countAgain();
    }
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('multipart fields', () => {
  it('refuses a field the form does not take, naming it', async () => {
    const client = ctx.client();
    await client.register();
    const res = await client.upload('/api/loras/count-characters', {
      fields: { padding: 'x'.repeat(1000) },
      files: [{ field: 'file', name: 'a.txt', data: 'hello' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', msg: expect.stringContaining('"padding"') });
    const twice = await client.upload('/api/loras', {
      fields: { name: 'A', text: 'x' },
      files: [{ field: 'name', name: 'b.txt', data: 'x' }],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toContain('"name"');
  });

  it('counts text fields towards the 50 MB upload total', async () => {
    const client = ctx.client();
    await client.register();
    const res = await client.upload('/api/loras', {
      fields: { name: 'Big', text: 'a'.repeat(7 * 1024 * 1024) },
      files: Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.alloc(9 * 1024 * 1024, 97) })),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('refusals before the body has arrived, with Connection: close', () => {
  /**
   * Sends `body` as many clients do (Python's requests, for one): the whole body first, a chunk
   * at a time as the connection takes it, and only then reads the answer. Resolves with the
   * answer, or the error the client saw instead of it.
   */
  function send(url: string, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
      const head =
        `POST ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: ${body.length}\r\n` +
        `${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n`;
      const socket = net.connect(port, '127.0.0.1');
      socket.pause();
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      socket.on('close', () => {
        const { status, body: text } = parseRaw(received);
        resolve(status ? { status, body: text } : { error: 'no answer' });
      });
      socket.write(head);
      let offset = 0;
      const writeMore = () => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + 64 * 1024);
          offset += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', writeMore);
        }
        socket.resume();
      };
      writeMore();
    });
  }

  it('delivers a 413 for a JSON body over the limit', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(40 * 1024 * 1024) }));
    const res = await send('/api/auth/login', { 'content-type': 'application/json', ...(await signedIn()) }, body);
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body ?? '{}')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('delivers the refusal of an upload cut short', async () => {
    const headers = await signedIn();
    const overTotal = encodeMultipart({
      fields: { name: 'A' },
      files: Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.alloc(10_000_000, 97) })),
    });
    const tooLarge = await send('/api/loras', { ...headers, 'content-type': overTotal.contentType }, overTotal.payload);
    expect(tooLarge.error).toBeUndefined();
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body ?? '{}')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });

    const unknown = encodeMultipart({
      fields: { surprise: 'x' },
      files: [{ name: 'big.txt', data: Buffer.alloc(10.5 * 1024 * 1024, 97) }],
    });
    const res = await send('/api/loras', { ...headers, 'content-type': unknown.contentType }, unknown.payload);
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body ?? '{}').msg).toContain('"surprise"');
  });

  it('delivers a 400 for a file over 10 MB and for pasted text over the limit', async () => {
    const headers = await signedIn();
    const forms: MultipartForm[] = [
      { fields: { name: 'A' }, files: [{ name: 'big.txt', data: Buffer.alloc(10.5 * 1024 * 1024, 97) }] },
      { fields: { name: 'A', text: 'a'.repeat(3_000_000) } },
    ];
    for (const form of forms) {
      const { payload, contentType } = encodeMultipart(form);
      const res = await send('/api/loras', { ...headers, 'content-type': contentType }, payload);
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(400);
    }
  });
});

describe('uploads that arrive too slowly', () => {
  // Small numbers for a test: after a 2 s grace, at least 100 KB a second on average.
  const MIN_RATE = 100_000;
  let paced: TestContext;
  let pacedPort: number;

  beforeAll(async () => {
    paced = await createTestContext({
      http: {
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 5_000,
        bodyIdleTimeoutMs: 5_000,
        bodyMinBytesPerSecond: MIN_RATE,
        bodyGraceMs: 2_000,
      },
      uploads: { perUser: 2, perIp: 2, total: 4 },
    });
    await paced.app.listen({ port: 0, host: '127.0.0.1' });
    pacedPort = (paced.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => paced.close());

  const pacedFolders = (): string[] => {
    try {
      return readdirSync(path.join(paced.config.dataDir, 'tmp')).filter((name) => name.startsWith('upload-'));
    } catch {
      return [];
    }
  };

  async function pacedAccount(): Promise<Record<string, string>> {
    const client = paced.client();
    await client.register();
    return { ...(await client.csrfHeaders()), authorization: `Bearer ${client.token}` };
  }

  /**
   * An upload of a 600 KB file from `from` (a loopback address), sent `bytesPerTick` every 100 ms
   * after a first 20 KB. Resolves with the answer as soon as it has arrived whole (the server
   * reads on after a refusal, and the sender goes on sending), or what came before the close.
   */
  function pacedUpload(headers: Record<string, string>, from: string, bytesPerTick: number) {
    const { payload, contentType } = encodeMultipart({
      files: [{ field: 'file', name: 'a.txt', data: 'x'.repeat(600_000) }],
    });
    const head =
      `POST /api/loras/count-characters HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\n` +
      `Content-Length: ${payload.length}\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`;
    const socket = net.connect({ port: pacedPort, host: '127.0.0.1', localAddress: from });
    socket.on('error', () => {});
    socket.write(head);
    socket.write(payload.subarray(0, 20_000));
    let sent = 20_000;
    const timer = setInterval(() => {
      if (sent >= payload.length) return clearInterval(timer);
      socket.write(payload.subarray(sent, sent + bytesPerTick));
      sent += bytesPerTick;
    }, 100);
    const started = Date.now();
    const answer = new Promise<{ status: number; body: { code?: string; msg?: string }; ms: number }>((resolve) => {
      let received = '';
      const done = () => {
        clearInterval(timer);
        const { status, body } = parseRaw(received);
        resolve({ status, body: body ? JSON.parse(body) : {}, ms: Date.now() - started });
        socket.destroy();
      };
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
        const [head = '', body = ''] = received.split('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN);
        if (Buffer.byteLength(body) >= length) done();
      });
      socket.on('close', done);
    });
    return { socket, answer };
  }

  it('takes the slots back from trickling uploads from several addresses, answers 408, and serves an honest upload', async () => {
    const attackers = ['127.0.0.2', '127.0.0.2', '127.0.0.3', '127.0.0.3'];
    // Every account first, then the four uploads at once: an account's sign-up hashes its password,
    // and on a busy machine the first upload lost its slot (after its grace) while the fourth's
    // account was still being made, so the four slots were never held together.
    const headers = await Promise.all(attackers.map(() => pacedAccount()));
    const honest = paced.client({ ip: '192.0.2.7' });
    await honest.register();
    const uploads = attackers.map((from, i) => pacedUpload(headers[i] as Record<string, string>, from, 1_000));
    try {
      // Every slot is held: a normal user is turned away for now.
      expect(await until(() => pacedFolders().length === 4, 10_000)).toBe(true);
      const form: MultipartForm = { files: [{ field: 'file', name: 'mine.txt', data: 'My own words.' }] };
      expect((await honest.upload('/api/loras/count-characters', form)).statusCode).toBe(429);

      // 10 KB a second is far below the pace: each loses its slot soon after the grace, told why.
      const answers = await Promise.race([
        Promise.all(uploads.map((u) => u.answer)),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the trickling uploads kept their slots')), 8_000),
        ),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(408);
        expect(answer.body).toMatchObject({ code: 'REQUEST_TIMEOUT', msg: expect.stringContaining('too slowly') });
        expect(answer.body.msg).toContain('try again');
        expect(answer.ms).toBeLessThan(5_000);
      }
      // Their files are gone, and the honest upload gets a slot.
      expect(await until(() => pacedFolders().length === 0, 3_000)).toBe(true);
      const served = await honest.upload('/api/loras/count-characters', form);
      expect(served.statusCode, served.body).toBe(200);
    } finally {
      for (const upload of uploads) upload.socket.destroy();
    }
  }, 30_000);

  it('lets an upload at an honest pace through, however long past the grace it takes', async () => {
    // 25 KB every 100 ms: 250 KB a second, two and a half times the pace, for about 2.4 s.
    const upload = pacedUpload(await pacedAccount(), '127.0.0.4', 25_000);
    const answer = await upload.answer;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.ms).toBeGreaterThan(2_000);
  }, 30_000);
});
