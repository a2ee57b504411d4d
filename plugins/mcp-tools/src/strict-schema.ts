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

function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const out: JsonSchema = { ...schema };
  if (typeof schema.type === 'string') out.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null')) out.type = [...schema.type, 'null'];
  else if (schema.type === undefined) return { anyOf: [schema, { type: 'null' }] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}

/** The strict form of `schema`; `path` names where a refusal is. @throws NotStrictError */
export function toStrictSchema(schema: unknown, path = ''): JsonSchema {
  if (schema === true || schema === undefined) throw new NotStrictError(`${path || '/'}: any value is allowed`);
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    throw new NotStrictError(`${path || '/'}: not a schema`);
  const node = schema as JsonSchema;
  for (const keyword of REFUSED)
    if (node[keyword] !== undefined) throw new NotStrictError(`${path || '/'}: "${keyword}" has no strict form`);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) if (!DROPPED.has(key)) out[key] = value;
  const types = Array.isArray(node.type) ? node.type : [node.type];
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
        const strict = toStrictSchema(value, `${path}/properties/${key}`);
        return [key, required.has(key) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (node.items !== undefined) out.items = toStrictSchema(node.items, `${path}/items`);
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[combinator];
    if (Array.isArray(list)) out[combinator] = list.map((s, i) => toStrictSchema(s, `${path}/${combinator}/${i}`));
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
