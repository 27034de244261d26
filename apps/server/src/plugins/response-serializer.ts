// Writes responses by their zod schemas without validating them again (decision 18): the
// handlers' return types are checked against the schemas at compile time, so at run time the
// schema only has to decide which keys leave the server. Each schema is compiled once into a
// writer that emits the listed keys and drops anything else, as zod's default strip does. Parts
// a writer cannot follow exactly (unions, transforms, defaults, strict or loose objects...) are
// encoded by zod as before. With `check` (the tests), every response is also encoded by zod and
// must come out byte for byte the same, so the suite proves the shapes as it always did.
import type { FastifyInstance } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeEncode } from 'zod/v4/core';

type Writer = (value: unknown) => string;

interface Def {
  type: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  checks?: { _zod: { def: { check: string } } }[];
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

/** zod's own encoding of `value`, as fastify-type-provider-zod writes it. */
function zodWriter(schema: $ZodType, method: string, url: string): Writer {
  return (value) => {
    const result = safeEncode(schema, value);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

type SerializerCompiler = Parameters<FastifyInstance['setSerializerCompiler']>[0];

/** A required key left undefined: zod then says what is wrong. */
class MissingKey extends Error {}

/**
 * A writer that follows `schema` without checking values (a required key left undefined throws
 * MissingKey, as no JSON could say it); zod's where it cannot follow exactly.
 */
function compile(schema: $ZodType, fallback: (schema: $ZodType) => Writer): Writer {
  const def = defOf(schema);
  // Checks that rewrite the value (trim, toLowerCase...) change the output: zod's job.
  if (def.checks?.some((c) => c._zod.def.check === 'overwrite')) return fallback(schema);
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
    case 'null':
    case 'unknown':
    case 'any':
      return JSON.stringify as Writer;
    case 'nullable': {
      const inner = compile(def.innerType as $ZodType, fallback);
      return (value) => (value === null ? 'null' : inner(value));
    }
    case 'array': {
      const element = compile(def.element as $ZodType, fallback);
      return (value) => `[${(value as unknown[]).map(element).join(',')}]`;
    }
    case 'object': {
      if (def.catchall) return fallback(schema);
      const fields = Object.entries(def.shape ?? {}).map(([key, field]) => {
        // An optional key may be absent; JSON drops it then, as it drops undefined.
        const optional = defOf(field).type === 'optional';
        const write = compile(optional ? (defOf(field).innerType as $ZodType) : field, fallback);
        return { key, prefix: `${JSON.stringify(key)}:`, write, optional };
      });
      return (value) => {
        const object = value as Record<string, unknown>;
        let out = '';
        for (const { key, prefix, write, optional } of fields) {
          const v = object[key];
          if (v === undefined) {
            if (optional) continue;
            throw new MissingKey(key);
          }
          out += `${out ? ',' : ''}${prefix}${write(v)}`;
        }
        return `{${out}}`;
      };
    }
    default:
      return fallback(schema);
  }
}

/** Fastify's serializer compiler for the API's zod response schemas. */
export function responseSerializerCompiler({ check }: { check: boolean }): SerializerCompiler {
  return ({ schema, method, url }) => {
    const zodSchema = schema as unknown as $ZodType;
    if (!(zodSchema instanceof $ZodType))
      throw new Error(`the response schema of ${method} ${url} is not a zod schema`);
    const exact = zodWriter(zodSchema, method, url);
    const compiled = compile(zodSchema, (part) => zodWriter(part, method, url));
    const fast: Writer = (value) => {
      try {
        return compiled(value);
      } catch (error) {
        if (error instanceof MissingKey) return exact(value);
        throw error;
      }
    };
    if (!check) return fast;
    return (value) => {
      const expected = exact(value);
      const written = fast(value);
      if (written !== expected) {
        throw new Error(`${method} ${url}: the response writer wrote\n${written}\nwhere zod encodes\n${expected}`);
      }
      return written;
    };
  };
}
