import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, Options as AjvOptions, ValidateFunction } from 'ajv';
import { JSON_SCHEMA_AJV_VERSION, validateJsonSchema } from './json-schema.generated.js';

// ajv itself is loaded at the first schema it has to compile or judge (~50–90 ms of start-up on this machine):
// a runtime whose schemas are all checked by the precompiled meta-schema validator and whose config sections
// all have precompiled validators does not load it before its first tool call.
const require = createRequire(import.meta.url);
let ajvClass: typeof AjvInstance | undefined;
const newAjv = (options: AjvOptions): AjvInstance => {
  ajvClass ??= (require('ajv') as { Ajv: typeof AjvInstance }).Ajv;
  return new ajvClass(options);
};
let ajvVersion: string | undefined;
/** The version of the ajv installed (its package.json read; ajv itself is not loaded). */
const installedAjvVersion = (): string => (ajvVersion ??= (require('ajv/package.json') as { version: string }).version);

// An Ajv instance compiles the JSON Schema meta-schema the first time it checks a schema, and that is most
// of its first compile's cost (60–160 ms on this machine, at every start-up). The meta-schema's validator
// is therefore precompiled (ajv's standalone code, json-schema.generated.ts) and answers for every schema it
// accepts; one Ajv instance checks the others, so a refusal is always ajv's own, word for word. The instances
// that compile validators skip that check.
let checker: AjvInstance | undefined;
const compilers = new Map<boolean, AjvInstance>();

/**
 * A validator for a plugin's JSON schema (a config section, a tool's parameters), with `useDefaults` as
 * ajv takes it (defaults written into the data validated). Not strict: plugins' schemas may carry
 * annotations ajv does not know.
 *
 * @throws Error `schema is invalid: …` (ajv's wording) when the schema is not a JSON schema
 */
export function compileSchema(schema: object, options: { readonly useDefaults: boolean }): ValidateFunction {
  checkSchema(schema);
  return compileChecked(schema, options.useDefaults);
}

/**
 * Checks `schema` against the meta-schema (draft-07, ajv's default). The precompiled validator answers for a
 * schema that names no `$schema` of its own and that it accepts; every other schema is judged by ajv, as
 * before. @throws Error `schema is invalid: …`
 */
export function checkSchema(schema: object): void {
  if (
    (schema as { $schema?: unknown }).$schema === undefined &&
    JSON_SCHEMA_AJV_VERSION === installedAjvVersion() &&
    validateJsonSchema(schema)
  ) {
    return;
  }
  checker ??= newAjv({ strict: false });
  if (!checker.validateSchema(schema)) throw new Error(`schema is invalid: ${checker.errorsText(checker.errors)}`);
}

/** The validator of a schema {@link checkSchema} accepted. */
function compileChecked(schema: object, useDefaults: boolean): ValidateFunction {
  let ajv = compilers.get(useDefaults);
  if (!ajv) {
    ajv = newAjv({ allErrors: false, strict: false, useDefaults, validateSchema: false });
    compilers.set(useDefaults, ajv);
  }
  return ajv.compile(schema);
}

/**
 * A config validator compiled ahead of time: ajv's standalone code for a plugin's `configSchema` with the
 * options the loader compiles it with (`useDefaults`, first error only), written by `npm run validators`
 * into the plugin's `src/config-validator.generated.ts`.
 */
export interface PrecompiledValidator {
  /** The version of ajv that generated it. */
  readonly ajv: string;
  /** `JSON.stringify` of the schema it was generated from. */
  readonly schema: string;
  /** ajv's validate function: true when the data is valid, defaults then written into it. */
  readonly validate: (data: unknown) => boolean;
}

/**
 * `precompiled`'s validate function when it was generated from `schema` (the same JSON) by the ajv installed,
 * else undefined: a validator generated before the schema or ajv changed is not used.
 */
export function precompiledFor(
  schema: object,
  precompiled: PrecompiledValidator | undefined,
): ((data: unknown) => boolean) | undefined {
  if (precompiled === undefined || precompiled.ajv !== installedAjvVersion()) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(schema);
  } catch {
    return undefined;
  }
  return json === precompiled.schema ? precompiled.validate : undefined;
}

/** A validator as the runtime calls it: `validate(value)`, then `validate.errors` when it said no. */
export type Validator = ((value: unknown) => boolean) & {
  errors?: ReadonlyArray<{ instancePath: string; message?: string }> | null;
};

/**
 * {@link compileSchema}, with the schema checked now and the validator compiled at its first call: a tool
 * whose schema is not one is refused at registration, and a runtime that never calls a tool (`mira mcp`
 * serving another, `mira check`) does not pay for compiling it.
 *
 * @throws Error `schema is invalid: …` when the schema is not a JSON schema
 */
export function compileSchemaLazily(schema: object, options: { readonly useDefaults: boolean }): Validator {
  checkSchema(schema);
  let compiled: ValidateFunction | undefined;
  const validate: Validator = (value: unknown) => {
    compiled ??= compileChecked(schema, options.useDefaults);
    const ok = compiled(value) as boolean;
    validate.errors = compiled.errors ?? null;
    return ok;
  };
  return validate;
}
