import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { MindViewErrors } from './errors.js';

const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;

/**
 * The JSON body of every endpoint that takes one, as a strict schema: exact types (ajv never coerces
 * here, so `"confidence": ""`, `true` or `[0.5]` is refused, not stored as a number), no unknown keys.
 * After the schema, the store applies the same validation as the console command the endpoint mirrors.
 */
export const BODY_SCHEMAS = {
  editNote: {
    type: 'object',
    properties: { content: text, labels: { anyOf: [{ type: 'array', items: text, maxItems: 64 }, nullableText] } },
    required: ['content'],
    additionalProperties: false,
  },
  deleteNotes: {
    type: 'object',
    properties: { ids: { type: 'array', items: { type: 'integer', minimum: 1 } } },
    required: ['ids'],
    additionalProperties: false,
  },
  relabelNotes: {
    type: 'object',
    properties: { ids: { type: 'array', items: { type: 'integer', minimum: 1 } }, add: text, remove: text },
    required: ['ids', 'add', 'remove'],
    additionalProperties: false,
  },
  addScope: {
    type: 'object',
    properties: { name: text },
    required: ['name'],
    additionalProperties: false,
  },
  combine: {
    type: 'object',
    properties: { keep: { type: 'integer', minimum: 1 }, drop: { type: 'integer', minimum: 1 } },
    required: ['keep', 'drop'],
    additionalProperties: false,
  },
  addEntity: {
    type: 'object',
    properties: { entity_type: text, canonical_name: text },
    required: ['entity_type', 'canonical_name'],
    additionalProperties: false,
  },
  addPlace: {
    type: 'object',
    properties: { name: text, pose: text, frame: { type: ['string', 'null'], maxLength: 128 } },
    required: ['name', 'pose'],
    additionalProperties: false,
  },
  addAlias: {
    type: 'object',
    properties: { alias: text },
    required: ['alias'],
    additionalProperties: false,
  },
  decideProposal: {
    type: 'object',
    properties: { reason: nullableText },
    additionalProperties: false,
  },
  addMemory: {
    type: 'object',
    properties: {
      kind: text,
      summary: text,
      links: {
        type: 'array',
        maxItems: 64,
        items: {
          type: 'object',
          properties: { entity: { type: 'string', pattern: '^[Ee][Nn][Tt][0-9]+$' }, role: text },
          required: ['entity', 'role'],
          additionalProperties: false,
        },
      },
      predicate: nullableText,
      value: nullableText,
      source_kind: nullableText,
      source_label: nullableText,
      confidence: { type: ['number', 'null'] },
    },
    required: ['kind', 'summary'],
    additionalProperties: false,
  },
} as const;

/** A body schema's name. */
export type BodyName = keyof typeof BODY_SCHEMAS;

// Compiled on first use: compiling every schema when the module loads cost every start-up (`mira mcp`
// included, which never serves the page) a quarter of a second. ajv itself is loaded then too (50–90 ms).
let ajv: Ajv | undefined;
const require = createRequire(import.meta.url);
const validators = new Map<BodyName, ValidateFunction>();
function validatorOf(name: BodyName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    ajv ??= new (require('ajv') as { Ajv: typeof Ajv }).Ajv({
      allErrors: false,
      coerceTypes: false,
      useDefaults: false,
      strict: true,
    });
    validate = ajv.compile(BODY_SCHEMAS[name]);
    validators.set(name, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '/';
  if (error.keyword === 'additionalProperties') {
    return `${where === '/' ? '' : where}/${(error.params as { additionalProperty: string }).additionalProperty}: unknown field`;
  }
  if (error.keyword === 'required')
    return `"${(error.params as { missingProperty: string }).missingProperty}" is required`;
  return `${where}: ${error.message ?? 'is invalid'}`;
}

/** Checks a parsed body against its schema. @throws MiraError MIRA_ERR_MIND_VIEW_BAD_REQUEST, nothing stored. */
export function checkBody<T>(name: BodyName, body: unknown): T {
  const validate = validatorOf(name);
  if (!validate(body)) throw MindViewErrors.error('BAD_REQUEST.field', { problem: describe(validate.errors![0]!) });
  return body as T;
}
