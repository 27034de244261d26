// The API reference page, rendered on the server from the open API document (openapi.ts):
// each operation with its method, path, scope, description, parameters, request and response
// fields, events and a curl example. Plain semantic HTML and one stylesheet, no script: it reads
// the same without network access, in the offline app, and under a policy that allows the page's
// own stylesheet (by its hash) and nothing else. Everything from the document is escaped.
import { createHash } from 'node:crypto';
import { API_KEY_RATE_LIMIT, API_KEY_SCOPE_LABELS, type ApiKeyScope } from '@ownvoice/shared';
import { DEFAULT_GENERATION_LIMITS } from '../../services/generation-gate.js';
import { DOCS_PATH, EXAMPLE_VOICE_ID, SECURITY_SCHEME } from './openapi.js';

/** A JSON Schema as the document writes one (OpenAPI 3.1: JSON Schema 2020-12). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** One field of a table: `description` is HTML (escaped, with its rules). */
interface FieldRow {
  /** The row's anchor, where a named schema's fields are listed. */
  id?: string;
  prefix: string;
  name: string;
  type: string;
  required: boolean;
  description: string;
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
  tags?: { name: string; description?: string }[];
}

const CSS = `
:root{--text:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--link:#0a58ca;--code:#eef1f4;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.55;color:var(--text);background:#fff}
*{box-sizing:border-box}
body{margin:0}
a{color:var(--link)}
a:focus-visible{outline:3px solid #0a58ca;outline-offset:2px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.875em}
:not(pre)>code{background:var(--code);padding:.1em .35em;border-radius:4px;overflow-wrap:break-word}
pre{background:#1f2328;color:#e6edf3;padding:1rem;border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0 1rem}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:1rem;z-index:2}
.top{display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap;padding:.9rem 1.5rem;border-bottom:1px solid var(--line)}
.brand{font-weight:700;font-size:1.15rem;color:var(--text);text-decoration:none}
.top .crumb{color:var(--muted)}
.top .key{margin-left:auto}
.layout{display:grid;grid-template-columns:17rem minmax(0,1fr);max-width:82rem;margin:0 auto}
.toc{padding:1.5rem 1rem 2rem 1.5rem;font-size:.925rem}
.toc p{margin:1rem 0 .25rem;font-weight:600}
.toc ul{list-style:none;margin:0;padding:0}
.toc li{margin:.2rem 0}
.toc a{text-decoration:none;color:var(--text)}
.toc a:hover{text-decoration:underline}
main{padding:1.5rem 2.5rem 4rem;min-width:0}
h1{font-size:2rem;margin:.5rem 0 1rem}
h2{font-size:1.5rem;margin:3rem 0 .75rem;padding-top:1rem;border-top:1px solid var(--line)}
h3{font-size:1.25rem;margin:0 0 .5rem}
h4{font-size:1rem;margin:1.5rem 0 .5rem}
h5{font-size:.95rem;margin:1rem 0 .25rem}
.op{border:1px solid var(--line);border-radius:10px;padding:1.25rem 1.5rem;margin:1.5rem 0}
.endpoint{font-size:1rem;margin:.25rem 0 .75rem;display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.endpoint code{background:none;padding:0;font-size:1rem}
.method{display:inline-block;min-width:3.6rem;text-align:center;font-weight:700;font-size:.75rem;letter-spacing:.04em;color:#fff;border-radius:4px;padding:.2rem .4rem;background:#57606a}
.method-get{background:#116329}
.method-post{background:#0550ae}
.method-put,.method-patch{background:#7d4e00}
.method-delete{background:#a40e26}
.toc .method{min-width:2.9rem;font-size:.65rem;padding:.1rem .3rem;margin-right:.35rem}
.facts{display:flex;flex-wrap:wrap;gap:.5rem 2rem;margin:.5rem 0 1rem;padding:0}
.facts div{display:flex;gap:.4rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0}
.table-scroll{overflow-x:auto;margin:.5rem 0 1rem}
.table-scroll>table{margin:0}
.table-scroll:focus-visible{outline:3px solid #0a58ca;outline-offset:2px}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.925rem}
th,td{text-align:left;vertical-align:top;padding:.45rem .6rem;border-bottom:1px solid var(--line);overflow-wrap:break-word}
th{white-space:nowrap}
td:first-child code{white-space:nowrap}
thead th{background:var(--soft);font-weight:600}
td .rules{display:block;color:var(--muted);font-size:.875rem;margin-top:.15rem}
.prefix{color:var(--muted)}
.muted{color:var(--muted)}
footer{border-top:1px solid var(--line);padding:1.5rem;text-align:center;color:var(--muted)}
@media (max-width:60rem){.layout{grid-template-columns:1fr}.toc{border-bottom:1px solid var(--line)}main{padding:1rem 1.25rem 3rem}}
`.trim();

/** The page's policy: its own stylesheet, by hash; no script, nothing fetched, never framed. */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A description's inline markup: `code` only. */
const inline = (text: string): string =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_match, code: string) => `<code>${code}</code>`);

/** A description: paragraphs split by blank lines. */
const prose = (text: string | undefined): string =>
  (text ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${inline(p)}</p>`)
    .join('\n');

const number = (n: number): string => n.toLocaleString('en-US');

/**
 * A table in a box of its own that scrolls sideways on a narrow screen, so that the page never
 * does. The box takes the focus, so a keyboard scrolls it too (axe: scrollable-region-focusable);
 * a named group rather than a region, so thirty of them add no landmarks to the page.
 */
const scrollBox = (label: string, table: string): string =>
  `<div class="table-scroll" role="group" tabindex="0" aria-label="${escapeHtml(label)}">${table}</div>`;

/** An id for an operation's anchor. */
const anchorOf = (method: string, path: string, op: Operation): string =>
  `op-${op.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

const scopeOf = (op: Operation): string | undefined => op.security?.[0]?.[SECURITY_SCHEME]?.[0];

const scopeLabel = (scope: string): string => API_KEY_SCOPE_LABELS[scope as ApiKeyScope] ?? scope;

class Renderer {
  private readonly schemas: Record<string, Schema>;
  /** Named schemas whose fields are listed already, with the anchor of their row. */
  private readonly listed = new Map<string, string>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly baseUrl: string,
  ) {
    this.schemas = document.components?.schemas ?? {};
  }

  /** The schema a `$ref` names, followed until it is not one. */
  private resolve(schema: Schema | undefined, depth = 0): Schema {
    if (!schema) return {};
    if (schema.$ref && depth < 10) {
      return this.resolve(this.schemas[schema.$ref.replace('#/components/schemas/', '')], depth + 1);
    }
    return schema;
  }

  private refName = (schema: Schema | undefined): string | undefined =>
    schema?.$ref?.replace('#/components/schemas/', '');

  /** "string", "integer or null", "array of Voice", "file". */
  private typeOf(schema: Schema | undefined): string {
    const s = this.resolve(schema);
    if (s.const !== undefined) return JSON.stringify(s.const);
    const union = s.anyOf ?? s.oneOf;
    if (union) {
      const labels = [...new Set(union.map((member) => this.typeOf(member)))];
      return labels.join(' or ');
    }
    if (Array.isArray(s.type))
      return s.type.map((t) => (t === 'array' ? this.typeOf({ ...s, type: t }) : t)).join(' or ');
    if (s.type === 'array') return `array of ${this.typeOf(s.items)}`;
    if (s.type === 'string' && s.format === 'binary') return 'file';
    if (s.type === 'object' || s.properties) return this.refName(schema) ?? 'object';
    return s.type ?? 'any';
  }

  /** The rules a value must follow, in words. */
  private rulesOf(schema: Schema | undefined): string[] {
    const s = this.resolve(schema);
    const rules: string[] = [];
    const union = s.anyOf ?? s.oneOf;
    if (union) for (const member of union) rules.push(...this.rulesOf(member));
    if (s.enum) rules.push(`one of ${s.enum.map((v) => String(v)).join(', ')}`);
    const limit = (min: number | undefined, max: number | undefined, unit: string) => {
      const big = (n: number | undefined) => n !== undefined && n >= Number.MAX_SAFE_INTEGER;
      const lo = big(min) ? undefined : min;
      const hi = big(max) ? undefined : max;
      if (lo !== undefined && hi !== undefined) rules.push(`${number(lo)} to ${number(hi)}${unit}`);
      else if (hi !== undefined) rules.push(`at most ${number(hi)}${unit}`);
      else if (lo !== undefined && lo > 0) rules.push(`at least ${number(lo)}${unit}`);
    };
    limit(s.minLength, s.maxLength, ' characters');
    limit(s.minimum, s.maximum, '');
    limit(s.minItems, s.maxItems, ' items');
    if (s.pattern) rules.push(`matches \`${s.pattern}\``);
    if (s.default !== undefined) rules.push(`default ${JSON.stringify(s.default)}`);
    return rules;
  }

  /** The fields of an object schema as rows, nested objects' fields under their dotted names. */
  private fieldRows(schema: Schema | undefined, prefix = '', depth = 0, seen = new Set<string>()): FieldRow[] {
    const s = this.resolve(schema);
    const name = this.refName(schema);
    if (name) {
      if (seen.has(name)) return [];
      seen = new Set([...seen, name]);
    }
    const required = new Set(s.required ?? []);
    const rows: FieldRow[] = [];
    for (const [field, child] of Object.entries(s.properties ?? {})) {
      const resolved = this.resolve(child);
      const rules = this.rulesOf(child);
      const description = inline(resolved.description ?? child.description ?? '');
      rows.push({
        prefix,
        name: field,
        type: this.typeOf(child),
        required: required.has(field),
        description: `${description}${rules.length ? `<span class="rules">${inline(rules.join('; '))}</span>` : ''}`,
      });
      if (depth >= 2) continue;
      const isArray = resolved.type === 'array';
      const nested = isArray ? resolved.items : child;
      if (!this.resolve(nested).properties) continue;
      // A named schema's fields are listed once on the page (its input and output forms alike,
      // which differ only in what defaults make optional); later uses point there.
      const component = this.refName(nested)?.replace(/Input$/, '');
      const listed = component && this.listed.get(component);
      const row = rows[rows.length - 1];
      if (listed && row) {
        row.description += ` <a href="#${listed}">Its fields are listed above.</a>`;
        continue;
      }
      if (component && row) {
        row.id = `fields-${component}`;
        this.listed.set(component, row.id);
      }
      rows.push(...this.fieldRows(nested, `${prefix}${field}${isArray ? '[]' : ''}.`, depth + 1, seen));
    }
    return rows;
  }

  /** The fields of a schema as a table; `label` names its scroll box. */
  private fieldsTable(schema: Schema | undefined, label: string): string {
    const s = this.resolve(schema);
    let intro = '';
    let target = schema;
    if (s.type === 'array') {
      intro = `<p>An array of ${inline(this.typeOf(s.items))}, each with these fields:</p>`;
      target = s.items;
    }
    const rows = this.fieldRows(target);
    if (rows.length === 0)
      return `<p>${inline(this.typeOf(schema))}${s.description ? `: ${inline(s.description)}` : ''}</p>`;
    // A schema that describes none of its fields (and sets no rules) gets no empty column.
    const described = rows.some((row) => row.description);
    const head = `<th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th>${described ? '<th scope="col">Description</th>' : ''}`;
    const body = rows
      .map(
        (row) =>
          `<tr${row.id ? ` id="${escapeHtml(row.id)}"` : ''}><td><code>${row.prefix ? `<span class="prefix">${escapeHtml(row.prefix)}</span>` : ''}${escapeHtml(row.name)}</code></td><td>${inline(row.type)}</td><td>${row.required ? 'yes' : 'no'}</td>${described ? `<td>${row.description}</td>` : ''}</tr>`,
      )
      .join('');
    return `${intro}${scrollBox(label, `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`)}`;
  }

  /** The events of a server-sent stream: one row per `type`. */
  private eventsTable(schema: Schema | undefined, label: string): string {
    const s = this.resolve(schema);
    const variants = s.oneOf ?? s.anyOf;
    if (!variants) return prose(s.description);
    const rows = variants.map((variant) => {
      const v = this.resolve(variant);
      const type = this.resolve(v.properties?.type);
      const required = new Set(v.required ?? []);
      const fields = Object.entries(v.properties ?? {})
        .filter(([field]) => field !== 'type')
        .map(
          ([field, child]) =>
            `<code>${escapeHtml(field)}</code> <span class="muted">${escapeHtml(this.typeOf(child))}${required.has(field) ? '' : ', optional'}</span>`,
        );
      return `<tr><td><code>${escapeHtml(String(type.const ?? type.enum?.[0] ?? v.title ?? ''))}</code></td><td>${fields.join('<br>') || '<span class="muted">none</span>'}</td><td>${inline(v.description ?? '')}</td></tr>`;
    });
    return scrollBox(
      label,
      `<table><thead><tr><th scope="col">Event <code>type</code></th><th scope="col">Fields</th><th scope="col">Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }

  /** A value of the schema's shape, for examples the document does not give. */
  private exampleOf(schema: Schema | undefined, depth = 0): unknown {
    const s = this.resolve(schema);
    if (s.const !== undefined) return s.const;
    if (s.default !== undefined) return s.default;
    if (s.enum?.length) return s.enum[0];
    const union = s.anyOf ?? s.oneOf;
    if (union?.[0]) return this.exampleOf(union[0], depth);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === 'object' || s.properties) {
      if (depth > 4) return {};
      const required = new Set(s.required ?? []);
      return Object.fromEntries(
        Object.entries(s.properties ?? {})
          .filter(([field]) => required.has(field))
          .map(([field, child]) => [field, this.exampleOf(child, depth + 1)]),
      );
    }
    if (type === 'array') return depth > 4 ? [] : [this.exampleOf(s.items, depth + 1)];
    if (type === 'integer' || type === 'number') return s.minimum ?? 0;
    if (type === 'boolean') return false;
    if (s.pattern === '^[0-9a-f]{24}$') return EXAMPLE_VOICE_ID;
    return '…';
  }

  private curl(method: string, path: string, op: Operation): string {
    const streams = Object.values(op.responses ?? {}).some((r) => r.content?.['text/event-stream']);
    const url = path.replace(/\{id\}/g, '$VOICE_ID').replace(/\{(\w+)\}/g, '<$1>');
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const lines = [
      `curl${streams ? ' -N' : ''}${['GET', 'POST'].includes(method) ? '' : ` -X ${method}`} "$OWNVOICE_URL${url}"`,
    ];
    lines.push('-H "Authorization: Bearer $OWNVOICE_KEY"');
    const content = op.requestBody?.content ?? {};
    const json = content['application/json'];
    const form = content['multipart/form-data'];
    if (json) {
      const example = json.example ?? this.exampleOf(json.schema);
      const text = JSON.stringify(example, null, JSON.stringify(example).length > 100 ? 2 : undefined);
      lines.push('-H "Content-Type: application/json"');
      // The example Voice's id becomes the shell's $VOICE_ID: out of the quotes, into the string.
      lines.push(`-d ${quote(text).replaceAll(`"${EXAMPLE_VOICE_ID}"`, `"'"$VOICE_ID"'"`)}`);
    } else if (form) {
      const example = (form.example ?? this.exampleOf(form.schema)) as Record<string, unknown>;
      for (const [field, value] of Object.entries(example)) {
        lines.push(value === EXAMPLE_VOICE_ID ? `-F "${field}=$VOICE_ID"` : `-F ${quote(`${field}=${String(value)}`)}`);
      }
    }
    return lines.join(' \\\n  ');
  }

  private operation(method: string, path: string, op: Operation): string {
    const id = anchorOf(method, path, op);
    const scope = scopeOf(op);
    const title = op.summary ?? `${method.toUpperCase()} ${path}`;
    const parts: string[] = [];
    parts.push(`<article class="op" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title">`);
    parts.push(`<h3 id="${escapeHtml(id)}-title">${inline(op.summary ?? `${method.toUpperCase()} ${path}`)}</h3>`);
    parts.push(
      `<p class="endpoint"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></p>`,
    );
    const requestTypes = Object.keys(op.requestBody?.content ?? {});
    const answerTypes = [
      ...new Set(
        Object.entries(op.responses ?? {})
          .filter(([status]) => status.startsWith('2'))
          .flatMap(([, r]) => Object.keys(r.content ?? {})),
      ),
    ];
    parts.push('<dl class="facts">');
    parts.push(
      `<div><dt>Scope</dt><dd>${scope ? `<code>${escapeHtml(scope)}</code> (${escapeHtml(scopeLabel(scope))})` : 'any key'}</dd></div>`,
    );
    if (requestTypes.length)
      parts.push(
        `<div><dt>Sends</dt><dd>${requestTypes.map((t) => `<code>${escapeHtml(t)}</code>`).join(', ')}</dd></div>`,
      );
    if (answerTypes.length)
      parts.push(
        `<div><dt>Answers</dt><dd>${answerTypes.map((t) => `<code>${escapeHtml(t)}</code>`).join(', ')}</dd></div>`,
      );
    parts.push('</dl>');
    parts.push(prose(op.description));

    const params = op.parameters ?? [];
    if (params.length) {
      parts.push('<h4>Parameters</h4>');
      parts.push(
        scrollBox(
          `${title}: parameters`,
          `<table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${params
            .map((p) => {
              const rules = this.rulesOf(p.schema);
              return `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${inline(this.typeOf(p.schema))}</td><td>${p.required ? 'yes' : 'no'}</td><td>${inline(p.description ?? '')}${rules.length ? `<span class="rules">${inline(rules.join('; '))}</span>` : ''}</td></tr>`;
            })
            .join('')}</tbody></table>`,
        ),
      );
    }

    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      parts.push(`<h4>Request body <span class="muted">(<code>${escapeHtml(type)}</code>)</span></h4>`);
      parts.push(this.fieldsTable(media.schema, `${title}: request body (${type})`));
    }

    const responses = Object.entries(op.responses ?? {});
    const successes = responses.filter(([status]) => /^[123]/.test(status));
    const refusals = responses.filter(([status]) => !/^[123]/.test(status));
    if (successes.length) parts.push('<h4>Responses</h4>');
    for (const [status, response] of successes) {
      const content = Object.entries(response.content ?? {});
      parts.push(`<h5>${escapeHtml(status)}${content.map(([t]) => ` · <code>${escapeHtml(t)}</code>`).join('')}</h5>`);
      parts.push(prose(response.description));
      for (const [type, media] of content) {
        if (content.length > 1) parts.push(`<p>As <code>${escapeHtml(type)}</code>:</p>`);
        const label = `${title}: response ${status}${content.length > 1 ? ` as ${type}` : ''}`;
        if (type === 'text/event-stream') parts.push(this.eventsTable(media.schema, `${label}, its events`));
        else parts.push(this.fieldsTable(media.schema, label));
      }
    }
    if (refusals.length) {
      const errorBody = path.startsWith('/api/')
        ? ' Each comes with the <a href="#errors">error body</a>.'
        : ' Each comes with an error body in OpenAI’s shape.';
      parts.push(`<h4>Refusals</h4><p class="muted">${errorBody.trim()}</p>`);
      parts.push(
        scrollBox(
          `${title}: refusals`,
          `<table><thead><tr><th scope="col">Status</th><th scope="col">When</th></tr></thead><tbody>${refusals
            .map(([status, r]) => `<tr><td>${escapeHtml(status)}</td><td>${inline(r.description ?? '')}</td></tr>`)
            .join('')}</tbody></table>`,
        ),
      );
    }
    parts.push('<h4>Example</h4>');
    parts.push(`<pre><code>${escapeHtml(this.curl(method.toUpperCase(), path, op))}</code></pre>`);
    parts.push('</article>');
    return parts.join('\n');
  }

  /** The operations, grouped by their first tag, in the order of the document's tags. */
  private groups(): { name: string; description?: string; ops: { method: string; path: string; op: Operation }[] }[] {
    const groups = new Map<
      string,
      { name: string; description?: string; ops: { method: string; path: string; op: Operation }[] }
    >();
    for (const tag of this.document.tags ?? []) groups.set(tag.name, { ...tag, ops: [] });
    for (const [path, item] of Object.entries(this.document.paths ?? {})) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const name = op.tags?.[0] ?? 'Other';
        if (!groups.has(name)) groups.set(name, { name, ops: [] });
        groups.get(name)?.ops.push({ method, path, op });
      }
    }
    return [...groups.values()].filter((group) => group.ops.length > 0);
  }

  render(): string {
    const { info } = this.document;
    const groups = this.groups();
    const tagId = (name: string) => `tag-${name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
    const scopes = new Map<string, { method: string; path: string; op: Operation }[]>();
    for (const entry of groups.flatMap((g) => g.ops)) {
      const scope = scopeOf(entry.op);
      if (scope) scopes.set(scope, [...(scopes.get(scope) ?? []), entry]);
    }
    const opLink = ({ method, path, op }: { method: string; path: string; op: Operation }) =>
      `<a href="#${escapeHtml(anchorOf(method, path, op))}">${inline(op.summary ?? path)}</a>`;
    const errorSchema = this.schemas.ApiError ? { $ref: '#/components/schemas/ApiError' } : undefined;

    const toc = [
      '<nav class="toc" aria-label="Contents">',
      '<p>Using the API</p><ul>',
      '<li><a href="#start">Getting started</a></li>',
      '<li><a href="#scopes">Scopes</a></li>',
      '<li><a href="#limits">Limits</a></li>',
      '<li><a href="#streams">Streams</a></li>',
      '<li><a href="#openai">From the openai SDK</a></li>',
      '<li><a href="#errors">Errors</a></li>',
      '</ul>',
      ...groups.flatMap((group) => [
        `<p><a href="#${tagId(group.name)}">${escapeHtml(group.name)}</a></p><ul>`,
        ...group.ops.map(
          (entry) =>
            `<li><a href="#${escapeHtml(anchorOf(entry.method, entry.path, entry.op))}"><span class="method method-${entry.method}">${entry.method.toUpperCase()}</span>${inline(entry.op.summary ?? entry.path)}</a></li>`,
        ),
        '</ul>',
      ]),
      '</nav>',
    ].join('\n');

    const intro = [
      `<h1>${escapeHtml(info.title)} reference</h1>`,
      prose(info.description),
      `<p class="muted">Version ${escapeHtml(info.version)} · OpenAPI ${escapeHtml(this.document.openapi)} document: <a href="${DOCS_PATH}/openapi.json">${DOCS_PATH}/openapi.json</a> (import it into your own tools).</p>`,
      '<section aria-labelledby="start"><h2 id="start">Getting started</h2>',
      '<ol>',
      '<li>Sign in and open <a href="/dashboard/account">your account page</a>. Under <strong>API keys</strong>, create a key: give it a name and the scopes it needs. The key (<code>ovk_…</code>) is shown once: keep it somewhere safe, such as a password manager or an environment variable.</li>',
      '<li>Wake the Voice you want to write with (in the pages, on the dashboard): a key can list and read any of your Voices, but writes only with awake ones.</li>',
      '<li>Send the key with every request, as a bearer token: <code>Authorization: Bearer ovk_…</code>. No cookie or CSRF token is needed.</li>',
      '</ol>',
      '<p>The examples on this page read the server, your key and a Voice’s id from the shell:</p>',
      `<pre><code>${escapeHtml(`export OWNVOICE_URL=${this.baseUrl}\nexport OWNVOICE_KEY=ovk_…      # your key\nexport VOICE_ID=…             # an awake Voice's _id, from GET /api/loras`)}</code></pre>`,
      '</section>',
      '<section aria-labelledby="scopes"><h2 id="scopes">Scopes</h2>',
      '<p>A key may do only what its scopes allow; anything else (your account, billing, the keys themselves) is refused with 403 <code>API_KEY_NOT_ALLOWED</code>, and an operation whose scope the key lacks with 403 <code>API_KEY_SCOPE</code>.</p>',
      scrollBox(
        'Scopes',
        `<table><thead><tr><th scope="col">Scope</th><th scope="col">Lets a key</th><th scope="col">Operations</th></tr></thead><tbody>${[
          ...scopes,
        ]
          .map(
            ([scope, ops]) =>
              `<tr><td><code>${escapeHtml(scope)}</code></td><td>${escapeHtml(scopeLabel(scope))}</td><td>${ops.map(opLink).join('<br>')}</td></tr>`,
          )
          .join('')}</tbody></table>`,
      ),
      '</section>',
      '<section aria-labelledby="limits"><h2 id="limits">Limits</h2>',
      `<p>Each key has its own budget of requests a minute (${number(API_KEY_RATE_LIMIT.default)} unless chosen when it was made, at most ${number(API_KEY_RATE_LIMIT.max)}). One person may run ${number(DEFAULT_GENERATION_LIMITS.perUser)} conversions or drafts at once, keys and pages together. Past either, the answer is 429 <code>RATE_LIMITED</code>. Each answer to a key says what is left of its minute, in OpenAI’s headers: <code>x-ratelimit-limit-requests</code>, <code>x-ratelimit-remaining-requests</code> and <code>x-ratelimit-reset-requests</code> (a duration such as <code>42s</code>). Writing spends your usage as it does in the pages, and your key’s spending shows on your account page.</p>`,
      '<p>Every answer names its request in <code>x-request-id</code>: quote it when you report a problem. You may send your own (letters, digits and <code>._:-</code>, at most 128) to trace a call; anything else is replaced.</p>',
      '</section>',
      '<section aria-labelledby="streams"><h2 id="streams">Streams</h2>',
      '<p>Convert and quick Create answer with server-sent events (<code>text/event-stream</code>) as the text is written: one <code>data:</code> line of JSON per event, each followed by a blank line. Read them as they arrive (with curl, <code>-N</code>). A refusal comes before the stream, as a JSON error with its status; a failure after the stream started comes as an <code>error</code> event, and the stream then ends.</p>',
      `<pre><code>${escapeHtml('data: {"type":"chunk_positions","chunkPositions":[{"start":0,"end":82}],"baseText":"Thanks for coming…"}\n\ndata: {"type":"chunk","chunkIndex":0,"text":"Thank you all"}\n\ndata: {"type":"chunk","chunkIndex":0,"text":" for Friday."}\n\ndata: {"type":"complete"}')}</code></pre>`,
      '</section>',
      '<section aria-labelledby="openai"><h2 id="openai">From the openai SDK</h2>',
      '<p><code>/v1</code> speaks OpenAI’s chat completions protocol, so the <code>openai</code> package, and any tool that takes an OpenAI base URL and key, writes in your Voice with a key that has the <code>create</code> scope. The models are your awake Voices; a model’s <code>id</code> is the Voice’s id, and any other is 404 <code>model_not_found</code>. Errors there come in OpenAI’s shape. A web page on any origin may call <code>/v1</code> with a key (CORS); <code>/api</code> answers OwnVoice’s own pages only.</p>',
      `<pre><code>${escapeHtml(`import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${this.baseUrl}/v1', apiKey: process.env.OWNVOICE_KEY });\n\nconst { data: voices } = await client.models.list(); // your awake Voices\nconst stream = await client.chat.completions.create({\n  model: voices[0].id,\n  messages: [{ role: 'user', content: 'A short note to the team: the launch went well, thank you.' }],\n  stream: true,\n});\nfor await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');`)}</code></pre>`,
      '</section>',
      '<section aria-labelledby="errors"><h2 id="errors">Errors</h2>',
      '<p>A refusal under <code>/api</code> has a status (4xx, or 503 when the model is not ready) and this body; <code>code</code> is for programs, <code>msg</code> for people.</p>',
      errorSchema ? this.fieldsTable(errorSchema, 'The error body') : '',
      '</section>',
    ].join('\n');

    const sections = groups
      .map(
        (group) =>
          `<section aria-labelledby="${tagId(group.name)}"><h2 id="${tagId(group.name)}">${escapeHtml(group.name)}</h2>\n${prose(group.description)}\n${group.ops
            .map(({ method, path, op }) => this.operation(method, path, op))
            .join('\n')}</section>`,
      )
      .join('\n');

    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<style>${CSS}</style>
</head>
<body>
<header class="top">
<a class="skip" href="#main">Skip to the reference</a>
<a class="brand" href="/">OwnVoice</a>
<span class="crumb">API reference</span>
<a class="key" href="/dashboard/account">Create an API key</a>
</header>
<div class="layout">
${toc}
<main id="main">
${intro}
${sections}
</main>
</div>
<footer><p>Generated from the routes’ own schemas. Machine-readable: <a href="${DOCS_PATH}/openapi.json">openapi.json</a>.</p></footer>
</body>
</html>
`;
  }
}

export function renderReferencePage(document: OpenApiDocument, { baseUrl }: { baseUrl: string }): string {
  return new Renderer(document, baseUrl).render();
}
