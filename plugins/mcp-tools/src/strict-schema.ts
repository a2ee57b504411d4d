/**
 * An MCP tool's input schema as a strict OpenAI function schema: every object closed
 * (`additionalProperties: false`) with every property required, optional properties made
 * nullable (a null the model sends is dropped before the call), and keywords strict mode does not
 * take removed. A schema that cannot be made strict (free-form maps, references) is refused.
 */
export type JsonSchema = Record<string, unknown>;

const DROPPED = new Set(['$schema', 'default', 'examples', '$id', '$comment', 'readOnly', 'writeOnly', 'deprecated']);
const REFUSED = [
  '$ref',
  'patternProperties',
  'propertyNames',
  'dependentSchemas',
  'if',
  'not',
  'unevaluatedProperties',
];

/** Thrown with the path and the reason a schema cannot be made strict. */
export class NotStrictError extends Error {}

/** How deeply a server's schema may nest (each property, item or combinator branch is a level). */
export const MAX_SCHEMA_DEPTH = 16;

/** What pins a value down without `type`: an enum, a constant, or a choice among schemas. */
const SHAPED = ['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'properties', 'items'];

/** A server's text inside a refusal: escaped and bounded (it is printed on the console). */
const quoted = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const out: JsonSchema = { ...schema };
  if (typeof schema.type === 'string') out.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null')) out.type = [...schema.type, 'null'];
  else if (schema.type === undefined) return { anyOf: [schema, { type: 'null' }] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}

/**
 * The strict form of `schema`; `path` names where a refusal is. Besides what strict mode cannot say, it
 * refuses what a server could hurt the runtime with: a regular expression (`pattern`: the check of an
 * argument would run it on the main thread, and a catastrophic one takes exponential time), a free-form
 * value (`{}`, an array without `items`, an object without properties below the top), and nesting
 * deeper than {@link MAX_SCHEMA_DEPTH}. @throws NotStrictError
 */
export function toStrictSchema(schema: unknown, path = '', depth = 0): JsonSchema {
  const where = path || '/';
  if (depth > MAX_SCHEMA_DEPTH) throw new NotStrictError(`${where}: nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (schema === true || schema === undefined) throw new NotStrictError(`${where}: any value is allowed`);
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    throw new NotStrictError(`${where}: not a schema`);
  const node = schema as JsonSchema;
  for (const keyword of REFUSED)
    if (node[keyword] !== undefined) throw new NotStrictError(`${where}: "${keyword}" has no strict form`);
  if (node.pattern !== undefined) {
    throw new NotStrictError(
      `${where}: the regular expression ${quoted(String(node.pattern))} is not run (a server's pattern could take exponential time to check)`,
    );
  }
  if (!SHAPED.some((keyword) => node[keyword] !== undefined) && path !== '') {
    throw new NotStrictError(`${where}: any value is allowed (a schema without type, enum or properties)`);
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('array') && node.items === undefined) {
    throw new NotStrictError(`${where}: an array of any values (no "items") has no strict form`);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) if (!DROPPED.has(key)) out[key] = value;
  if (types.includes('object') || node.properties !== undefined) {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
      throw new NotStrictError(`${path || '/'}: a map of free-form keys (additionalProperties) has no strict form`);
    }
    if (Object.keys(properties).length === 0 && path !== '') {
      throw new NotStrictError(`${path}: an object without properties has no strict form`);
    }
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    out.type = 'object';
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, value]) => {
        const strict = toStrictSchema(value, `${path}/properties/${key}`, depth + 1);
        return [key, required.has(key) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (node.items !== undefined) out.items = toStrictSchema(node.items, `${path}/items`, depth + 1);
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[combinator];
    if (Array.isArray(list))
      out[combinator] = list.map((s, i) => toStrictSchema(s, `${path}/${combinator}/${i}`, depth + 1));
  }
  return out;
}

/** Arguments as the MCP server expects them: the nulls the model sent for optional properties dropped. */
export function dropOptionalNulls(value: unknown, schema: unknown): unknown {
  if (value === null || typeof value !== 'object' || schema === null || typeof schema !== 'object') return value;
  const node = schema as JsonSchema;
  if (Array.isArray(value)) return value.map((v) => dropOptionalNulls(v, node.items));
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null && !required.has(key)) continue;
    out[key] = dropOptionalNulls(v, properties[key]);
  }
  return out;
}
