import { Ajv, type ValidateFunction } from 'ajv';

// An Ajv instance compiles the JSON Schema meta-schema the first time it checks a schema, and that is most
// of its first compile's cost (60–160 ms on this machine, at every start-up). One instance checks every
// schema against the meta-schema; the instances that compile validators skip that check.
let checker: Ajv | undefined;
const compilers = new Map<boolean, Ajv>();

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

/** Checks `schema` against the meta-schema. @throws Error `schema is invalid: …` */
function checkSchema(schema: object): void {
  checker ??= new Ajv({ strict: false });
  if (!checker.validateSchema(schema)) throw new Error(`schema is invalid: ${checker.errorsText(checker.errors)}`);
}

/** The validator of a schema {@link checkSchema} accepted. */
function compileChecked(schema: object, useDefaults: boolean): ValidateFunction {
  let ajv = compilers.get(useDefaults);
  if (!ajv) {
    ajv = new Ajv({ allErrors: false, strict: false, useDefaults, validateSchema: false });
    compilers.set(useDefaults, ajv);
  }
  return ajv.compile(schema);
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
