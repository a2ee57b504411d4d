/**
 * How a package defines its error catalogue (`errors.ts`): each code once, with what it means, the
 * situations it is raised in, and for each situation its wording and what to do (the Fastify
 * `createError` habit, one step further). Codes are stable strings that scripts match on; messages and
 * fixes are for people. The error reference (docs/reference/errors.md) is generated from the catalogues,
 * one row per situation.
 *
 * What to do rides on the error itself ({@link MiraError.fix}): the catalogue that raises an error sets
 * the fix of the situation it raised it in, so no registry of loaded catalogues is needed to print it,
 * and a package may raise another package's code without loading after it.
 */

/**
 * A situation a code is raised in: its wording, a template with `{name}` for each parameter the
 * raising site gives, and what to do in it.
 */
export interface Situation {
  /** The message (`'{path}: cannot be read ({reason})'`); a site passes the parameters, never text of its own. */
  readonly message: string;
  /** What to do in this situation, for the person who reads the message. */
  readonly fix: string;
}

/** One code of a catalogue. */
export interface ErrorEntry<C extends string = string> {
  readonly code: C;
  /** What the code means, in one line; the message when the raising site adds no detail. */
  readonly message: string;
  /** What to do: for the entry's own message or template, and for each situation given as a bare string. */
  readonly fix: string;
  /** The HTTP status an HTTP API answers with; 400 when absent. */
  readonly status?: number;
  /**
   * The message of the one situation of a code raised in one situation only, with `{name}` for each
   * parameter (`'{what} is longer than {max} characters'`); its fix is the entry's.
   */
  readonly template?: string;
  /**
   * The situations a code is raised in, by name: each its wording and what to do
   * (`extendsMissing: { message: '{where}: extends "{spec}", which does not exist', fix: 'fix the path …' }`),
   * or a bare wording when the entry's fix is exactly what to do in it.
   * A site names one as `KEY.situation` (`CoreErrors.error('MANIFEST_NOT_FOUND.extendsMissing', { where, spec })`).
   */
  readonly situations?: Readonly<Record<string, string | Situation>>;
}

/**
 * A code of another package's catalogue that this package raises in situations of its own (a store
 * plugin raises core's `STORE_OPEN_FAILED`): the meaning stays the owner's, once; each situation here has
 * its wording and its fix (`{ code: CoreErrorCodes.STORE_OPEN_FAILED, borrowed: true, situations: {…} }`).
 * The reference lists them beside the owner's; nothing about the owner is looked up at run time.
 */
export interface BorrowedEntry<C extends string = string> {
  readonly code: C;
  readonly borrowed: true;
  /** As {@link ErrorEntry.situations}, each with its fix: the owner's is not looked up at run time. */
  readonly situations: Readonly<Record<string, Situation>>;
}

/**
 * The `{name}` placeholders of a template, as a union of names. Braces around anything but a name
 * (`{ name, version }`, `{}`) are text, as {@link fillTemplate} reads them.
 */
export type TemplatePlaceholders<T extends string> = T extends `${string}{${infer P}}${infer R}`
  ? | (P extends '' | `${string}${' ' | '"' | "'" | ',' | ':' | '{' | '(' | '-' | '.'}${string}` ? never : P)
    | TemplatePlaceholders<R>
  : never;

/** The parameters a template needs: one value per placeholder. */
export type TemplateParams<T extends string> = [TemplatePlaceholders<T>] extends [never]
  ? Readonly<Record<string, never>> // not {}: a string would pass as one, and its text be dropped
  : { readonly [K in TemplatePlaceholders<T>]: string | number };

/** What a site passes for a template `T`: its parameters (optional when it has none), then options. */
type TemplateArgs<T extends string> = [TemplatePlaceholders<T>] extends [never]
  ? [params?: TemplateParams<T>, options?: { cause?: unknown }]
  : [params: TemplateParams<T>, options?: { cause?: unknown }];

/** The wording of a situation, whichever way it is written. */
type Wording<S> = S extends string ? S : S extends { readonly message: infer M extends string } ? M : never;

/**
 * What {@link ErrorCatalogue.error} takes after a bare key: an entry with a template takes its parameters;
 * one with neither template nor situations takes an optional detail (the entry's message when absent).
 */
export type ErrorArgs<E extends ErrorEntry | BorrowedEntry> = E extends { readonly template: infer T extends string }
  ? TemplateArgs<T>
  : [detail?: string, options?: { cause?: unknown }];

/** The keys a site may raise without naming a situation: entries with a template, or with no situations. */
export type BareKey<D extends ErrorDefinitions> = {
  [K in keyof D & string]: D[K] extends { readonly borrowed: true }
    ? never
    : D[K] extends { readonly template: string }
      ? K
      : D[K] extends { readonly situations: object }
        ? never
        : K;
}[keyof D & string];

/** The `KEY.situation` names of a catalogue's situations ({@link ErrorEntry.situations}). */
export type SituationKey<D extends ErrorDefinitions> = {
  [K in keyof D & string]: D[K] extends { readonly situations: infer S } ? `${K}.${keyof S & string}` : never;
}[keyof D & string];

/** What {@link ErrorCatalogue.error} takes after `key`: a situation's parameters, or the entry's {@link ErrorArgs}. */
export type ErrorArgsOf<D extends ErrorDefinitions, K extends string> = K extends `${infer E}.${infer S}`
  ? D[E] extends { readonly situations: infer SS }
    ? SS extends { readonly [N in S]: infer W }
      ? TemplateArgs<Wording<W>>
      : never
    : never
  : ErrorArgs<D[K]>;

/** `template` with each `{name}` replaced by its parameter (a placeholder without one stays as written). */
export function fillTemplate(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The definitions a catalogue is built from, by key (`CONFIG_INVALID`). */
export type ErrorDefinitions = Readonly<Record<string, ErrorEntry | BorrowedEntry>>;

/** A package's catalogue: its codes by key, and every entry for the reference and for HTTP statuses. */
export interface ErrorCatalogue<D extends ErrorDefinitions = ErrorDefinitions> {
  /** The package that raises these codes. */
  readonly package: string;
  /** The codes by key: `CoreErrors.codes.CONFIG_INVALID === 'MIRA_ERR_CONFIG_INVALID'`. */
  readonly codes: { readonly [K in keyof D]: D[K]['code'] };
  /** The codes this package defines. */
  readonly entries: readonly ErrorEntry<D[keyof D]['code']>[];
  /** The codes of other packages it raises in situations of its own ({@link BorrowedEntry}). */
  readonly borrowed: readonly BorrowedEntry<D[keyof D]['code']>[];
  /** The entry of a code this catalogue defines (not one it borrows). */
  entry(code: string): ErrorEntry | undefined;
  /**
   * A {@link MiraError} with this catalogue's code and the fix of its situation: its message built from the
   * situation's wording (or the entry's template) and the parameters given, or (an entry with neither)
   * the detail given, or the entry's message.
   */
  error<K extends BareKey<D> | SituationKey<D>>(
    key: K,
    ...args: ErrorArgsOf<D, K>
  ): MiraError<D[K extends `${infer E}.${string}` ? E : K]['code']>;
}

const CATALOGUE = Symbol.for('mira.errorCatalogue');

/**
 * Defines a package's error catalogue. A code may appear once per catalogue
 * (checked here) and once across packages (checked by a test).
 *
 * @example
 * export const AcmeErrors = defineErrors('@acme/mira-plugin-lab', {
 *   EMPTY_NOTE: { code: 'ACME_ERR_EMPTY_NOTE', message: 'the note is empty', fix: 'write some text' },
 *   NOTE_TOO_LONG: {
 *     code: 'ACME_ERR_NOTE_TOO_LONG',
 *     message: 'a note is longer than its bound',
 *     fix: 'shorten the note',
 *     situations: {
 *       text: { message: 'the note has {length} characters, more than {max}', fix: 'shorten the note' },
 *       label: { message: 'the label "{label}" is longer than {max}', fix: 'use a shorter label' },
 *     },
 *   },
 * });
 * throw AcmeErrors.error('EMPTY_NOTE');
 * throw AcmeErrors.error('NOTE_TOO_LONG.text', { length: 900, max: 512 });
 */
export function defineErrors<const D extends ErrorDefinitions>(pkg: string, definitions: D): ErrorCatalogue<D> {
  const frozen = Object.fromEntries(
    Object.entries(definitions).map(([key, entry]) => [
      key,
      Object.freeze({
        ...entry,
        ...(entry.situations && {
          situations: Object.freeze(
            Object.fromEntries(
              Object.entries(entry.situations).map(([name, s]) => [
                name,
                typeof s === 'string' ? s : Object.freeze({ ...s }),
              ]),
            ),
          ),
        }),
      }),
    ]),
  ) as Record<string, ErrorEntry | BorrowedEntry>;
  const byCode = new Map<string, ErrorEntry>();
  const entries: ErrorEntry[] = [];
  const borrowed: BorrowedEntry[] = [];
  for (const entry of Object.values(frozen)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(entry.code))
      throw new Error(`${pkg}: error code "${entry.code}" must be UPPER_SNAKE_CASE`);
    if (byCode.has(entry.code) || borrowed.some((b) => b.code === entry.code))
      throw new Error(`${pkg}: error code ${entry.code} is defined twice in its catalogue`);
    for (const [name, situation] of Object.entries(entry.situations ?? {})) {
      if (!/^[a-z][A-Za-z0-9]*$/.test(name))
        throw new Error(`${pkg}: situation "${name}" of ${entry.code} must be a camelCase name`);
      if (typeof situation !== 'string' && !(situation.message?.trim() && situation.fix?.trim()))
        throw new Error(`${pkg}: situation ${name} of ${entry.code} needs a message and a fix`);
      if ('borrowed' in entry && typeof situation === 'string')
        throw new Error(
          `${pkg}: borrowed situation ${name} of ${entry.code} needs a fix of its own ({ message, fix })`,
        );
    }
    if ('borrowed' in entry) {
      if (Object.keys(entry.situations ?? {}).length === 0)
        throw new Error(`${pkg}: borrowed error code ${entry.code} needs situations of its own`);
      borrowed.push(entry);
    } else {
      entries.push(entry);
      byCode.set(entry.code, entry);
    }
  }
  const codes = Object.freeze(Object.fromEntries(Object.entries(definitions).map(([key, entry]) => [key, entry.code])));
  return Object.freeze({
    [CATALOGUE]: true,
    package: pkg,
    codes: codes as ErrorCatalogue<D>['codes'],
    entries: Object.freeze(entries) as ErrorCatalogue<D>['entries'],
    borrowed: Object.freeze(borrowed) as ErrorCatalogue<D>['borrowed'],
    entry: (code: string) => byCode.get(code),
    error: (key: string, ...args: unknown[]) => {
      const dot = key.indexOf('.');
      const entry: ErrorEntry | BorrowedEntry | undefined = frozen[dot < 0 ? key : key.slice(0, dot)];
      const situation = dot < 0 ? undefined : entry?.situations?.[key.slice(dot + 1)];
      if (entry === undefined || (dot >= 0 && situation === undefined))
        throw new Error(`${pkg}: the catalogue has no error ${key}`);
      if (situation === undefined && ('borrowed' in entry || (entry.situations && entry.template === undefined)))
        throw new Error(`${pkg}: ${key} is raised in a situation; name it (${key}.<situation>)`);
      const own = entry as ErrorEntry;
      const wording =
        situation === undefined ? own.template : typeof situation === 'string' ? situation : situation.message;
      const fix = typeof situation === 'object' ? situation.fix : own.fix;
      const [given, options] = args as [(string | Readonly<Record<string, string | number>>)?, { cause?: unknown }?];
      const detail =
        wording !== undefined
          ? fillTemplate(wording, typeof given === 'object' ? given : {})
          : typeof given === 'string'
            ? given
            : own.message;
      return new MiraError(entry.code, detail, { ...options, fix });
    },
  });
}

/**
 * What to do about `error`, for a person reading it: the fix of the innermost {@link MiraError} in its
 * `cause` chain that carries one (a plugin that failed to start because its database failed is helped by
 * the database's advice, not by "read the cause"), or undefined when no error in the chain has one.
 */
export function whatToDo(error: unknown): string | undefined {
  let fix: string | undefined;
  const seen = new Set<unknown>();
  for (let at: unknown = error; at instanceof Error && !seen.has(at); at = at.cause) {
    seen.add(at);
    if (at instanceof MiraError) fix = at.fix ?? fix;
  }
  return fix;
}

/** True when `value` is an {@link ErrorCatalogue} (packages export theirs from their entry point). */
export function isErrorCatalogue(value: unknown): value is ErrorCatalogue {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CATALOGUE] === true;
}

/**
 * An error with a stable `code` from a catalogue. The message reads `CODE: what happened`; `fix` says
 * what to do in the situation it was raised in; a lower-layer error rides in `cause`.
 *
 * @example
 * throw new MiraError(CoreErrorCodes.CONFIG_INVALID, 'profile.toml: /memory/enabled must be boolean', {
 *   fix: 'fix the key at the JSON path the message names',
 * });
 */
export class MiraError<C extends string = string> extends Error {
  /** The stable code, e.g. `MIRA_ERR_CONFIG_INVALID`. */
  readonly code: C;
  /** The message without the leading code. */
  readonly detail: string;
  /** What to do, from the catalogue situation the error was raised in (absent on one built by hand without it). */
  declare readonly fix?: string;

  constructor(code: C, detail: string, options?: { cause?: unknown; fix?: string | undefined }) {
    super(`${code}: ${detail}`, options && 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'MiraError';
    this.code = code;
    this.detail = detail;
    if (options?.fix !== undefined) Object.defineProperty(this, 'fix', { value: options.fix, enumerable: true });
  }
}

/** True when `value` is a {@link MiraError}, optionally with the given code. */
export function isMiraError(value: unknown, code?: string): value is MiraError {
  return value instanceof MiraError && (code === undefined || value.code === code);
}
