// The open API document and its reference page: the public API (what a key reaches, and /v1) is
// documented from the routes' own schemas with the bearer key and each scope; everything else is
// left out; the page shows every documented path, with no script and a strict policy of its own.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { convertEventSchema, convertRequestSchema, createEventSchema } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { FORMS } from '../loras/voice-upload.js';
import { isPublicRoute, OPENAPI_VERSION, SECURITY_SCHEME, serversFor } from './openapi.js';
import type { OpenApiDocument, Operation, Schema } from './page.js';

let ctx: TestContext;
let doc: OpenApiDocument;

beforeAll(async () => {
  ctx = await createTestContext();
  const res = await ctx.client().get('/api/docs/openapi.json');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(() => ctx.close());

/** The routes an API key reaches, as the document writes their paths, with the scope each needs. */
const KEY_ROUTES = [
  ['get', '/api/loras', 'voices:read'],
  ['get', '/api/loras/{id}', 'voices:read', 'training'],
  ['post', '/api/loras', 'training'],
  ['post', '/api/loras/{id}/cancel-training', 'training'],
  ['get', '/api/loras/{id}/training-events', 'voices:read', 'training'],
  ['get', '/api/loras/{id}/package', 'training'],
  ['get', '/api/loras/{id}/merged-model', 'training'],
  ['post', '/api/loras/import', 'training'],
  ['post', '/api/loras/{id}/convert-stream', 'convert'],
  ['post', '/api/loras/{id}/convert', 'convert'],
  ['post', '/api/loras/edit-chunk', 'convert'],
  ['post', '/api/content/generate-stream', 'create'],
  ['post', '/api/content/interactive/next', 'create'],
] as const;

const operation = (method: string, path: string): Operation | undefined => doc.paths?.[path]?.[method];
const asDocumentPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const operations = () =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );
const resolve = (schema: Schema | undefined): Schema =>
  schema?.$ref ? resolve(doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]) : (schema ?? {});
/** The event types a stream's schema lists. */
const eventTypes = (schema: Schema | undefined) =>
  (resolve(schema).oneOf ?? resolve(schema).anyOf ?? []).map((variant) => resolve(variant).properties?.type?.const);

describe('the open API document', () => {
  it('is an OpenAPI 3.1 document with a bearer key scheme', () => {
    expect(doc.openapi).toBe(OPENAPI_VERSION);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(Object.keys(doc.paths ?? {}).length).toBeGreaterThan(0);
    const schemes = (doc.components as { securitySchemes?: Record<string, unknown> }).securitySchemes;
    expect(schemes?.[SECURITY_SCHEME]).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    for (const { method, path, op } of operations()) {
      expect(op.summary, `${method} ${path}`).toBeTruthy();
      expect(op.description, `${method} ${path}`).toBeTruthy();
      expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      expect(op.security?.[0]?.[SECURITY_SCHEME], `${method} ${path}`).toBeDefined();
    }
    // Every reference points at a component the document has.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs)
      expect(doc.components?.schemas?.[ref.slice('"#/components/schemas/'.length, -1)], ref).toBeDefined();
  });

  it('names its server and its licence', () => {
    const { servers, info } = doc as unknown as { servers?: { url: string }[]; info: { license?: object } };
    // Relative: resolved against wherever the document was fetched from, this server.
    expect(servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(serversFor('https://voices.example.org/')).toEqual([
      { url: 'https://voices.example.org', description: expect.any(String) },
    ]);
    expect(info.license).toEqual({ name: expect.any(String), identifier: expect.stringMatching(/^LicenseRef-/) });
  });

  // The linter people run on an API's document (`npx @redocly/cli lint`), with its recommended rules.
  it('passes Redocly’s lint without an error or a warning', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'ownvoice-openapi-'));
    try {
      const file = path.join(folder, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const redocly = path.resolve(import.meta.dirname, '../../../../../node_modules/.bin/redocly');
      const { stdout } = await promisify(execFile)(redocly, ['lint', file, '--format=json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each(KEY_ROUTES)('documents %s %s with the bearer key and its scope, %s', (method, path, ...scopes) => {
    const op = operation(method, path);
    expect(op, `${method} ${path}`).toBeDefined();
    // A route several scopes open lists each as an alternative.
    expect(op?.security).toEqual(scopes.map((scope) => ({ [SECURITY_SCHEME]: [scope] })));
  });

  it('documents what a key reaches and everything under /v1, each /api operation with its scope', () => {
    const documented = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    // A browser's preflight (OPTIONS) is no operation.
    const v1 = ctx.app.routeList
      .filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${asDocumentPath(r.url)}`);
    expect(v1.length).toBeGreaterThan(0);
    expect(documented).toEqual(
      expect.arrayContaining([...KEY_ROUTES.map(([m, p]) => `${m.toUpperCase()} ${p}`), ...v1]),
    );
    // Under /api, only what a key may use: each names its scope.
    for (const { method, path, op } of operations().filter((o) => o.path.startsWith('/api/'))) {
      expect(op.security?.[0]?.[SECURITY_SCHEME]?.length, `${method} ${path}`).toBe(1);
    }
  });

  it('hides account, billing, admin and the pages’ own routes', () => {
    const paths = Object.keys(doc.paths ?? {});
    for (const hidden of ['/api/auth/me', '/api/auth/api-keys', '/api/admin/users', '/api/loras/public', '/api/docs']) {
      expect(paths).not.toContain(hidden);
    }
    for (const prefix of [
      '/api/auth',
      '/api/admin',
      '/api/stripe',
      '/api/plans',
      '/api/offline-checkout',
      '/api/docs',
    ]) {
      expect(paths.filter((p) => p.startsWith(prefix))).toEqual([]);
    }
    // Routes the pages use on a Voice, but keys may not, stay out too.
    expect(operation('patch', '/api/loras/{id}')).toBeUndefined();
    expect(operation('post', '/api/loras/{id}/fork')).toBeUndefined();
  });

  it('takes the selection rule from the route: a key’s scope, or /v1', () => {
    expect(isPublicRoute({ url: '/api/anything', config: { apiKey: 'convert' } })).toBe(true);
    expect(isPublicRoute({ url: '/v1/models' })).toBe(true);
    expect(isPublicRoute({ url: '/v1' })).toBe(true);
    expect(isPublicRoute({ url: '/api/auth/me' })).toBe(false);
    expect(isPublicRoute({ url: '/api/loras/public', config: {} })).toBe(false);
    expect(isPublicRoute({ url: '/v10/models' })).toBe(false);
    expect(isPublicRoute({ url: '/v1/*', method: 'OPTIONS' })).toBe(false);
  });

  it('gives Convert’s request body the fields of its zod schema', () => {
    const body = operation('post', '/api/loras/{id}/convert-stream')?.requestBody;
    const schema = resolve(body?.content?.['application/json']?.schema);
    const fields = Object.keys(convertRequestSchema.shape);
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...fields].sort());
    const required = fields.filter(
      (field) =>
        !convertRequestSchema.shape[field as keyof typeof convertRequestSchema.shape].safeParse(undefined).success,
    );
    expect([...(schema.required ?? [])].sort()).toEqual(required.sort());
    expect(schema.properties?.text?.type).toBe('string');
    expect(schema.properties?.text?.maxLength).toBe(convertRequestSchema.shape.text.maxLength);
    expect(schema.properties?.text?.description).toBeTruthy();
  });

  it('documents Create’s multipart form: the form’s text fields and its file', () => {
    const body = operation('post', '/api/content/generate-stream')?.requestBody;
    expect(Object.keys(body?.content ?? {})).toEqual(['multipart/form-data']);
    const schema = resolve(body?.content?.['multipart/form-data']?.schema);
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(
      [...Object.keys(FORMS.generate.schema.shape), FORMS.generate.fileField].sort(),
    );
    expect(schema.properties?.[FORMS.generate.fileField]?.format).toBe('binary');
    expect(schema.required).toEqual(expect.arrayContaining(['prompt', 'selectedLora']));
  });

  it('says the streams answer server-sent events, and lists their events', () => {
    const convert = operation('post', '/api/loras/{id}/convert-stream')?.responses?.['200']?.content;
    expect(Object.keys(convert ?? {})).toEqual(['text/event-stream']);
    expect(eventTypes(convert?.['text/event-stream']?.schema)).toEqual(
      convertEventSchema.options.map((o) => o.shape.type.value),
    );
    const create = operation('post', '/api/content/generate-stream')?.responses?.['200']?.content;
    expect(Object.keys(create ?? {})).toEqual(['text/event-stream']);
    expect(eventTypes(create?.['text/event-stream']?.schema)).toEqual(
      createEventSchema.options.map((o) => o.shape.type.value),
    );
    // Chat completions: JSON, or with `stream: true` chunks (and an error after the stream began).
    const chat = operation('post', '/v1/chat/completions')?.responses?.['200']?.content;
    expect(Object.keys(chat ?? {})).toEqual(['application/json', 'text/event-stream']);
    const events = resolve(chat?.['text/event-stream']?.schema).anyOf ?? [];
    expect(events.map((event) => resolve(event).title)).toEqual(['chat.completion.chunk', 'error']);
    expect(resolve(events[0]).properties?.object?.const).toBe('chat.completion.chunk');
    expect(Object.keys(resolve(events[1]).properties ?? {})).toEqual(['error']);
  });

  it('documents the refusals a key may meet, with the API’s error body', () => {
    for (const [method, path] of KEY_ROUTES) {
      const responses = operation(method, path)?.responses ?? {};
      for (const status of ['400', '401', '403', '429']) {
        const schema = responses[status]?.content?.['application/json']?.schema;
        expect(schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/ApiError' });
      }
    }
  });

  // Schemathesis (scripts/fuzz-api.sh) checks each answer against the schema of its status: an
  // undocumented refusal is one it cannot check.
  it('documents the refusals under /v1 with OpenAI’s error body, the one they are answered with', async () => {
    const v1 = [
      ['get', '/v1/models', []],
      ['get', '/v1/models/{id}', ['404']],
      ['post', '/v1/chat/completions', ['404', '408', '413', '415', '503']],
    ] as const;
    for (const [method, path, own] of v1) {
      const responses = operation(method, path)?.responses ?? {};
      for (const status of ['400', '401', '403', '429', ...own]) {
        const schema = responses[status]?.content?.['application/json']?.schema;
        expect(schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/OpenAIError' });
        expect(responses[status]?.description, `${method} ${path} ${status}`).toBeTruthy();
      }
    }
    // Every 4xx and 5xx documented under /v1 is OpenAI's error body, a model not found among them.
    for (const { method, path, op } of operations().filter((o) => o.path.startsWith('/v1/'))) {
      for (const [status, response] of Object.entries(op.responses ?? {}).filter(([s]) => Number(s) >= 400)) {
        expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toEqual(['application/json']);
        expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/OpenAIError',
        });
      }
    }
    expect(operation('get', '/v1/models/{id}')?.responses?.['404']?.description).toContain('model_not_found');
    const res = await ctx.client().post('/v1/chat/completions', {});
    expect(res.statusCode).toBe(401);
    const body = res.json<{ error: Record<string, unknown> }>();
    const documented = resolve({ $ref: '#/components/schemas/OpenAIError' });
    expect(documented.required).toEqual(Object.keys(body));
    const error = resolve(documented.properties?.error);
    expect([...(error.required ?? [])].sort()).toEqual(Object.keys(body.error).sort());
    expect(Object.keys(error.properties ?? {}).sort()).toEqual(Object.keys(body.error).sort());
  });

  it('documents a body too large wherever a JSON body is taken', () => {
    for (const { method, path, op } of operations()) {
      if (!op.requestBody?.content?.['application/json']) continue;
      const schema = op.responses?.['413']?.content?.['application/json']?.schema;
      expect(schema, `${method} ${path} 413`).toEqual({
        $ref: `#/components/schemas/${path.startsWith('/v1/') ? 'OpenAIError' : 'ApiError'}`,
      });
    }
  });
});

describe('the reference page', () => {
  it('shows every documented operation, in HTML without script, under a strict policy of its own', async () => {
    const res = await ctx.client().get('/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    for (const { method, path, op } of operations()) {
      expect(html, path).toContain(`<code>${path}</code>`);
      expect(html, `${method} ${path}`).toContain(`>${method.toUpperCase()}</span>`);
      expect(html, `${method} ${path}`).toContain(op.summary);
    }
    expect(html).toContain('<main id="main">');
    expect(html).toContain('curl -N &quot;$OWNVOICE_URL/api/loras/$VOICE_ID/convert-stream&quot;');
    expect(html).toContain('const client = new OpenAI({ baseURL: ');
    expect(html).not.toMatch(/<script/i);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    // The one stylesheet is allowed by its hash, and nothing else is.
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(policy).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(html.match(/<style/g)).toHaveLength(1);
    expect(html).not.toMatch(/ style="/);
  });

  it('puts every table in a named box of its own that scrolls sideways and takes the keyboard focus', async () => {
    const html = (await ctx.client().get('/api/docs')).body;
    const tables = html.match(/<table>/g) ?? [];
    expect(tables.length).toBeGreaterThan(10);
    // A phone is narrower than a table of four columns: the box scrolls, not the page.
    const boxes = [
      ...html.matchAll(/<div class="table-scroll" role="group" tabindex="0" aria-label="([^"]+)"><table>/g),
    ];
    expect(boxes).toHaveLength(tables.length);
    // Each box is named for what its table holds, and no two alike, so a screen reader tells them apart.
    const labels = boxes.map((box) => box[1]);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('Convert a text in a Voice (whole): request body (application/json)');
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(css).toContain('.table-scroll{overflow-x:auto');
    expect(css).toContain('.table-scroll:focus-visible{outline');
  });
});
