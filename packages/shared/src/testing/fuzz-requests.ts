// Hostile HTTP requests for fuzz tests, generated with fast-check from a route's own zod schemas
// (body and query, through their JSON Schema): values of the right shape with hostile contents
// and of the wrong type, fields missing and extra, huge strings, NUL characters, and bodies that
// are not JSON at all. The API's fuzz test and the inference server's both draw from here.
import fc from 'fast-check';
import { z } from 'zod';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  maxLength?: number;
};

/** Looks like an id (24 hex digits) but names nothing. */
export const hex24 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });

export const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '<script>alert(1)</script>', '%00', '\ud800', '{"a":'),
);

const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
  nasty,
);

/** A value for `schema`: usually the right shape with hostile contents, sometimes the wrong type. */
export function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return wrongType;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)));
  let right: fc.Arbitrary<unknown>;
  if (schema.enum?.length) right = fc.constantFrom(...schema.enum);
  else if (schema.const !== undefined) right = fc.constant(schema.const);
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'object') right = objectFor(schema, depth);
    else if (type === 'array') right = fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 });
    else if (type === 'integer')
      right = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER));
    else if (type === 'number') right = fc.double();
    else if (type === 'boolean') right = fc.boolean();
    else if (type === 'string') right = fc.oneof(nasty, fc.string({ maxLength: 30 }), hex24);
    else right = wrongType;
  }
  return fc.oneof({ arbitrary: right, weight: 3 }, { arbitrary: wrongType, weight: 1 });
}

/** An object with the schema's fields, some left out, some extra. */
function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const keys = Object.keys(props);
  const fields = fc.record(Object.fromEntries(keys.map((k) => [k, valueFor(props[k], depth + 1)])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), wrongType, { maxKeys: 2 });
  return fc.tuple(fields, extra).map(([f, e]) => ({ ...e, ...f }));
}

/** A route's zod schema part as JSON Schema, or none. */
export function jsonSchemaOf(part: unknown): JsonSchema | undefined {
  if (!(part instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(part, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** UTF-8 bytes of `text`; a lone surrogate becomes U+FFFD, as a browser sends it. */
function utf8(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    let cp = char.codePointAt(0) ?? 0xfffd;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return bytes;
}

/** Percent-encodes every byte. */
export const enc = (text: string): string =>
  utf8(text)
    .map((b) => `%${b.toString(16).padStart(2, '0')}`)
    .join('');

const toQuery = (value: unknown): string => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `q=${enc(String(value))}`;
  return Object.entries(value)
    .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
    .join('&');
};

/** A route as Fastify lists it, with the zod schemas it was declared with. */
export interface FuzzedRoute {
  method: string;
  url: string;
  schema?: unknown;
}

/** A whole request, in the shape Fastify's inject takes. */
export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/**
 * A request for the route: its path (each `:param` drawn from `params`), query and a body (JSON of
 * its schema's shape, not-JSON, or garbage under another content type).
 */
export function requestFor(route: FuzzedRoute, params: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
  const bodySchema = jsonSchemaOf(schema.body);
  const querySchema = jsonSchemaOf(schema.querystring);
  const body = fc.oneof(
    { weight: 4, arbitrary: valueFor(bodySchema ?? { type: 'object' }).map((v) => ({ json: v })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((raw) => ({ raw, type: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'),
          nasty,
        )
        .map(([type, raw]) => ({ raw, type })),
    },
  );
  const method = route.method as FuzzRequest['method'];
  return fc
    .record({ param: params, query: querySchema ? valueFor(querySchema) : fc.constant(undefined), body })
    .map(({ param, query, body }): FuzzRequest => {
      const url = route.url.replace(/:\w+/g, param) + (query === undefined ? '' : `?${toQuery(query)}`);
      if (method === 'GET') return { method, url, headers: {} };
      if ('json' in body) {
        return {
          method,
          url,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body.json ?? null),
        };
      }
      return { method, url, headers: { 'content-type': body.type }, payload: body.raw };
    });
}
