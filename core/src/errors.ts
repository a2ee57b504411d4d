/**
 * Error catalogues. Each package defines every code it raises once, in its
 * own `errors.ts`, with what it means, what to do about it and, for errors an
 * HTTP API answers with, the status (the Fastify `createError` habit). Codes
 * are stable strings that scripts match on; messages are for people. The
 * error reference (docs/reference/errors.md) is generated from the catalogues.
 */

/** One code of a catalogue. */
export interface ErrorEntry<C extends string = string> {
  readonly code: C;
  /** What happened, in one line; the message when the raising site adds no detail. */
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
  /** The HTTP status an HTTP API answers with; 400 when absent. */
  readonly status?: number;
  /**
   * The message a raising site builds, with `{name}` for each of its parameters
   * (`'{what} is longer than {max} characters; shorten it'`): with one, a site passes the parameters, never
   * text of its own, so the wording lives here once.
   */
  readonly template?: string;
  /**
   * The messages of the situations a code is raised in, by name, each a template like {@link template}:
   * one code, one meaning and one fix, with the wording of each situation here once
   * (`MANIFEST_NOT_FOUND: { situations: { extendsMissing: '{where}: extends "{spec}", which does not exist' } }`).
   * A site names one as `KEY.situation` (`CoreErrors.error('MANIFEST_NOT_FOUND.extendsMissing', { where, spec })`).
   */
  readonly situations?: Readonly<Record<string, string>>;
}

/**
 * A code of another package's catalogue that this package raises too (a store plugin raises core's
 * `STORE_OPEN_FAILED`): the meaning and the fix stay the owner's, once; the borrowing catalogue words
 * its own situations (`{ code: CoreErrorCodes.STORE_OPEN_FAILED, borrowed: true, situations: {…} }`).
 * The owner's catalogue must be loaded first, which importing its code constant does.
 */
export interface BorrowedEntry<C extends string = string> {
  readonly code: C;
  readonly borrowed: true;
  /** As {@link ErrorEntry.template}. */
  readonly template?: string;
  /** As {@link ErrorEntry.situations}. */
  readonly situations?: Readonly<Record<string, string>>;
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

/**
 * What {@link ErrorCatalogue.error} takes after the key: an entry with a template takes its parameters;
 * one without takes an optional detail (the entry's message when absent).
 */
export type ErrorArgs<E extends ErrorEntry | BorrowedEntry> = E extends { readonly template: infer T extends string }
  ? [TemplatePlaceholders<T>] extends [never]
    ? [params?: TemplateParams<T>, options?: { cause?: unknown }]
    : [params: TemplateParams<T>, options?: { cause?: unknown }]
  : E extends { readonly situations: object }
    ? [params?: Readonly<Record<string, never>>, options?: { cause?: unknown }]
    : [detail?: string, options?: { cause?: unknown }];

/** The `KEY.situation` names of a catalogue's situations ({@link ErrorEntry.situations}). */
export type SituationKey<D extends ErrorDefinitions> = {
  [K in keyof D & string]: D[K] extends { readonly situations: infer S } ? `${K}.${keyof S & string}` : never;
}[keyof D & string];

/** What {@link ErrorCatalogue.error} takes after `key`: a situation's parameters, or the entry's {@link ErrorArgs}. */
export type ErrorArgsOf<D extends ErrorDefinitions, K extends string> = K extends `${infer E}.${infer S}`
  ? D[E] extends { readonly situations: infer SS }
    ? SS extends Readonly<Record<S, infer T extends string>>
      ? [TemplatePlaceholders<T>] extends [never]
        ? [params?: TemplateParams<T>, options?: { cause?: unknown }]
        : [params: TemplateParams<T>, options?: { cause?: unknown }]
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
   * A {@link MiraError} with this catalogue's code: its message built from the entry's template and the
   * parameters given, or (an entry without one) the detail given, or the entry's message.
   */
  error<K extends (keyof D & string) | SituationKey<D>>(
    key: K,
    ...args: ErrorArgsOf<D, K>
  ): MiraError<D[K extends `${infer E}.${string}` ? E : K]['code']>;
}

const CATALOGUE = Symbol.for('mira.errorCatalogue');
/** Every entry of every catalogue loaded in this process, by code (see {@link errorEntry}). */
const LOADED = new Map<string, ErrorEntry>();

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
 *     template: 'the note has {length} characters, more than {max}',
 *     fix: 'shorten the note',
 *   },
 * });
 * throw AcmeErrors.error('EMPTY_NOTE');
 * throw AcmeErrors.error('NOTE_TOO_LONG', { length: 900, max: 512 });
 */
export function defineErrors<const D extends ErrorDefinitions>(pkg: string, definitions: D): ErrorCatalogue<D> {
  const all = Object.values(definitions).map((entry) =>
    Object.freeze({ ...entry, ...(entry.situations && { situations: Object.freeze({ ...entry.situations }) }) }),
  );
  const byCode = new Map<string, ErrorEntry>();
  const entries: ErrorEntry[] = [];
  const borrowed: BorrowedEntry[] = [];
  const seen = new Set<string>();
  for (const entry of all) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(entry.code))
      throw new Error(`${pkg}: error code "${entry.code}" must be UPPER_SNAKE_CASE`);
    if (seen.has(entry.code)) throw new Error(`${pkg}: error code ${entry.code} is defined twice in its catalogue`);
    seen.add(entry.code);
    for (const situation of Object.keys(entry.situations ?? {}))
      if (!/^[a-z][A-Za-z0-9]*$/.test(situation))
        throw new Error(`${pkg}: situation "${situation}" of ${entry.code} must be a camelCase name`);
    if ('borrowed' in entry) {
      if (!LOADED.has(entry.code))
        throw new Error(
          `${pkg}: borrowed error code ${entry.code} is defined by no loaded catalogue; import its code from the package that defines it`,
        );
      if (entry.template === undefined && entry.situations === undefined)
        throw new Error(`${pkg}: borrowed error code ${entry.code} needs a template or situations of its own`);
      borrowed.push(entry);
      continue;
    }
    entries.push(entry);
    byCode.set(entry.code, entry);
    // The first catalogue to define a code keeps it (a test refuses a code defined in two packages).
    if (!LOADED.has(entry.code)) LOADED.set(entry.code, entry);
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
      const entry = definitions[dot < 0 ? key : key.slice(0, dot)];
      const template = dot < 0 ? entry?.template : entry?.situations?.[key.slice(dot + 1)];
      if (entry === undefined || (dot >= 0 && template === undefined))
        throw new Error(`${pkg}: the catalogue has no error ${key}`);
      const [given, options] = args as [(string | Readonly<Record<string, string | number>>)?, { cause?: unknown }?];
      const detail =
        template !== undefined
          ? fillTemplate(template, typeof given === 'object' ? given : {})
          : typeof given === 'string'
            ? given
            : 'borrowed' in entry
              ? LOADED.get(entry.code)!.message
              : entry.message;
      return new MiraError(entry.code, detail, options);
    },
  });
}

/**
 * The catalogue entry of `code` — its meaning and what to do — from whichever loaded package defines it
 * (a code raised was defined by a loaded module), or undefined for a code no catalogue holds.
 */
export function errorEntry(code: string): ErrorEntry | undefined {
  return LOADED.get(code);
}

/**
 * What to do about `error`, from the catalogue, for a person reading it: the fix of the innermost
 * {@link MiraError} in its `cause` chain whose code a loaded catalogue holds (a plugin that failed to start
 * because its database failed is helped by the database's advice, not by "read the cause"), or
 * undefined when no error in the chain has one. {@link failureText} is its stderr form.
 */
export function whatToDo(error: unknown): string | undefined {
  let fix: string | undefined;
  const seen = new Set<unknown>();
  for (let at: unknown = error; at instanceof Error && !seen.has(at); at = at.cause) {
    seen.add(at);
    if (at instanceof MiraError) fix = errorEntry(at.code)?.fix ?? fix;
  }
  return fix;
}

/** True when `value` is an {@link ErrorCatalogue} (packages export theirs from their entry point). */
export function isErrorCatalogue(value: unknown): value is ErrorCatalogue {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CATALOGUE] === true;
}

/** The errors of `@mira/core`: manifest, plugins, registries, console, text and CLI. */
export const CoreErrors = defineErrors('@mira/core', {
  MANIFEST_NOT_FOUND: {
    code: 'MIRA_ERR_MANIFEST_NOT_FOUND',
    message: 'the profile manifest does not exist',
    fix: 'pass --profile a profile directory holding profile.toml, or the file itself',
    situations: {
      notProfilePackage:
        '{pkgJson}: package {name} is not a Mira profile; its package.json needs "mira": { "profile": "profile.toml" }',
      extendsMissing: '{where}: extends "{spec}", which does not exist',
      extendsUnknown:
        '{where}: extends "{spec}", which is neither a path nor an installed profile package (npm install {spec})',
      unreadable: '{path}: cannot be read ({reason}){via}',
      profileArgument:
        '{profileArg}: no such file, directory or installed profile package; pass a profile directory, its {manifestFile}, or a profile package name',
      noManifest: '{file}: no {manifestFile} here; create one (see docs/integrator.md, "Profile manifest")',
    },
  },
  MANIFEST_SYNTAX: {
    code: 'MIRA_ERR_MANIFEST_SYNTAX',
    message: 'the profile manifest is not valid TOML',
    fix: 'fix the TOML at the line and column the message names',
    template: '{path}:{line}:{column}: invalid TOML: {problem}; fix the line and start again',
  },
  MANIFEST_INVALID: {
    code: 'MIRA_ERR_MANIFEST_INVALID',
    message: 'the [profile] table is missing or malformed',
    fix: 'give [profile] a name and a plugins list, as docs/integrator.md ("Profile manifest") shows',
    situations: {
      extendsCycle: 'extends cycle: {chain}; remove one of the links',
      extendsNotList:
        '{path}: [profile] extends must be a list of profile packages or paths, e.g. ["@mira/profile-sim"]',
      unsetVariable: '{origin}: {at} uses ${{name}}, which is not set; export {name}=… or write ${{name}:-default}',
      topLevelKey:
        '{path}: top-level key "{key}" must be inside a table; put it under [profile] or the table of the plugin it configures',
      noProfile: '{path}: missing [profile] table; add [profile] with name, description and plugins',
      profileKey: '{path}: [profile] has unknown key "{key}"; allowed keys are {allowed}',
      startTimeout:
        '{path}: [profile] start_timeout_ms must be an integer from 100 to 600000 (ms each plugin may take to start)',
      name: "{path}: [profile] name must be a non-empty string: the robot's name (the runtime self)",
      description: '{path}: [profile] description must be a string',
      plugins:
        '{path}: [profile] plugins must be a list of package names or relative paths, e.g. ["@mira/plugin-memory"]',
      workingMemoryKey: '{path}: [working_memory] has unknown key "{key}"; the only key is max_entries',
      maxEntries: '{path}: [working_memory] max_entries must be an integer from 1 to 10000',
    },
  },
  CONFIG_INVALID: {
    code: 'MIRA_ERR_CONFIG_INVALID',
    message: "a plugin's config section does not match its schema",
    fix: 'fix the key at the JSON path the message names',
    situations: { schema: '{path}: plugin {name}: [{section}] {problem}' },
  },
  CONFIG_UNKNOWN_TABLE: {
    code: 'MIRA_ERR_CONFIG_UNKNOWN_TABLE',
    message: 'a manifest table belongs to no plugin of the profile',
    fix: 'add the plugin that uses the table to [profile] plugins, or remove the table',
    template:
      '{path}: table [{table}] is not claimed by any plugin in this profile; add the plugin that uses it to [profile] plugins, or remove the table',
  },
  PLUGIN_NOT_FOUND: {
    code: 'MIRA_ERR_PLUGIN_NOT_FOUND',
    message: 'a plugin the manifest names cannot be found',
    fix: 'install the package (npm install NAME) or fix the path, which is relative to the manifest',
    situations: {
      path: '{path}: plugin "{specifier}" not found at {file}; fix the path (it is relative to the manifest\'s directory)',
      package:
        '{path}: plugin package "{specifier}" not found from {dir} nor from the Mira installation; install it (npm install {specifier}) or fix the name',
    },
  },
  PLUGIN_INVALID: {
    code: 'MIRA_ERR_PLUGIN_INVALID',
    message: 'a module is not a Mira plugin, or its setup() returned something else',
    fix: 'export default { name, version, setup(kernel, config) } returning { start?, stop? }',
    situations: {
      notPlugin:
        '{path}: plugin "{specifier}" is not a Mira plugin: {why}; export default { name, version, setup(kernel, config) }',
      coreTable: "{path}: plugin {name} claims the table [{section}], which belongs to Mira's core",
      configSchema: 'plugin {name} has an invalid configSchema: {reason}',
      instanceNotObject: '{path}: plugin {name}: setup() must return an object ({ start?, stop? }) or nothing',
      instanceMember: '{path}: plugin {name}: the instance\'s "{member}" must be a function',
    },
  },
  PLUGIN_LOAD_FAILED: {
    code: 'MIRA_ERR_PLUGIN_LOAD_FAILED',
    message: 'a plugin module could not be loaded: it threw while loading, or something it imports is missing',
    fix: 'read the cause after the colon: install what it imports, build it to JavaScript, or fix the module',
    template: '{path}: plugin "{specifier}" failed to load: {reason}{hint}',
  },
  PLUGIN_DUPLICATE: {
    code: 'MIRA_ERR_PLUGIN_DUPLICATE',
    message: 'a plugin or a config table is named twice',
    fix: 'remove one of the two from the profile',
    situations: {
      listedTwice: '{path}: plugin {name} is listed twice ("{previous}" and "{specifier}"); remove one',
      tableClaimed: '{path}: plugins {other} and {name} both claim the table [{section}]',
    },
  },
  PLUGIN_DEPENDENCY_MISSING: {
    code: 'MIRA_ERR_PLUGIN_DEPENDENCY_MISSING',
    message: 'a plugin depends on one the profile does not list',
    fix: 'add the dependency to [profile] plugins',
    template: '{path}: plugin {name} depends on {dep}, which is not in [profile] plugins; add "{dep}" to the list',
  },
  PLUGIN_DEPENDENCY_CYCLE: {
    code: 'MIRA_ERR_PLUGIN_DEPENDENCY_CYCLE',
    message: 'plugins depend on each other in a cycle',
    fix: 'remove one of the dependencies',
    template: '{path}: plugins {cycle} depend on each other in a cycle; remove one of the dependencies',
  },
  PLUGIN_APPLY_FAILED: {
    code: 'MIRA_ERR_PLUGIN_APPLY_FAILED',
    message: "a plugin's setup() failed",
    fix: 'read the cause in the message; it names the plugin',
  },
  PLUGIN_START_FAILED: {
    code: 'MIRA_ERR_PLUGIN_START_FAILED',
    message: "a plugin's start() failed; the plugins that started were stopped",
    fix: 'read the cause in the message; it names the plugin',
  },
  PLUGIN_START_TIMEOUT: {
    code: 'MIRA_ERR_PLUGIN_START_TIMEOUT',
    message: "a plugin's start() did not finish within [profile] start_timeout_ms; the runtime did not start",
    fix: 'check what the plugin waits for (a device, a server, a bridge); raise [profile] start_timeout_ms if it is only slow',
    template:
      '{path}: plugin {name}: start() did not finish within {ms} ms; the robot was not started. Check what it waits for (a device, a server, a bridge), or raise [profile] start_timeout_ms',
  },
  PLUGIN_STOP_FAILED: {
    code: 'MIRA_ERR_PLUGIN_STOP_FAILED',
    message: "a plugin's stop() or a store's close() failed; shutdown went on",
    fix: 'read the cause on stderr; nothing else was skipped',
  },
  DUPLICATE_REGISTRATION: {
    code: 'MIRA_ERR_DUPLICATE_REGISTRATION',
    message: 'two plugins registered a tool, command, store or sensor of one name',
    fix: 'rename one of them or remove one plugin from the profile',
    situations: {
      consoleCommand:
        'console command "{key}" of plugin {owner} is already registered by plugin {owner2}; rename one of them or remove one plugin from the profile',
      registry:
        '{what} "{name}" of plugin {owner} is already registered by plugin {owner2}; rename one of them or remove one plugin from the profile',
    },
  },
  REGISTRATION_INVALID: {
    code: 'MIRA_ERR_REGISTRATION_INVALID',
    message: 'a plugin registered something malformed (a bad name, no run())',
    fix: 'fix the plugin; the message names it',
    situations: {
      consoleCommand:
        'plugin {owner} registered a console command with an invalid name {given} or no run(); use lower-case words',
      toolName:
        'tool name {given} is not valid: a tool name is lower-case letters, digits and _, starting with a letter, at most 64 characters',
      toolRun: 'tool "{name}" has no run() function',
      toolKind: 'tool "{name}" of plugin {owner}: kind must be "acquisition" or "effect"',
      toolOrigins: 'tool "{name}" of plugin {owner}: origins must list some of {origins}',
      toolForAgents: 'tool "{name}" of plugin {owner}: a tool for other agents must be an acquisition (read-only) tool',
      store: 'plugin {pluginName} registered a store without a key (storeKey<T>(name)) or open()',
      sensor: 'plugin {pluginName} registered a sensor without a valid id',
    },
  },
  TOOL_SCHEMA_NOT_STRICT: {
    code: 'MIRA_ERR_TOOL_SCHEMA_NOT_STRICT',
    message: "a tool's parameter schema is not strict",
    fix: 'list every property in required, make optional ones nullable, set additionalProperties: false',
    situations: {
      invalid: 'tool "{name}" of plugin {owner}: invalid JSON schema: {reason}',
      notObject: 'tool "{name}" of plugin {owner}: parameters must be a JSON schema of type "object"',
      notStrict: 'tool "{name}" of plugin {owner}: parameter schema is not strict at {violation}',
    },
  },
  TOOL_RESULT_INVALID: {
    code: 'MIRA_ERR_TOOL_RESULT_INVALID',
    message: "a tool's result had no text content (content must be a string); the call was refused",
    fix: "make the plugin's tool return { content: string, display: string }",
    template:
      'tool {name} of plugin {owner} returned {what} where a result with text content belongs; the call was refused',
  },
  SENSOR_NOT_REGISTERED: {
    code: 'MIRA_ERR_SENSOR_NOT_REGISTERED',
    message: 'a reading was published for a sensor no plugin registered; it was dropped',
    fix: 'register the sensor (kernel.sensors.register) before publishing its readings',
    template:
      'plugin {owner} published a reading for sensor {sensorId}, which is not registered; it was dropped. Register it with kernel.sensors.register first',
  },
  STORE_NOT_AVAILABLE: {
    code: 'MIRA_ERR_STORE_NOT_AVAILABLE',
    message: 'a store is not registered in this profile, or not open yet',
    fix: 'enable the plugin that registers it; stores open before start()',
    template: 'store "{name}" is not available: {why}',
  },
  STORE_OPEN_FAILED: {
    code: 'MIRA_ERR_STORE_OPEN_FAILED',
    message: 'a store could not be opened (not a file, a parent directory that cannot be created, an I/O error)',
    fix: 'fix the path or permissions the message names',
  },
  FILE_EXISTS: {
    code: 'MIRA_ERR_FILE_EXISTS',
    message: 'the file to write exists already; nothing was written',
    fix: 'choose another path, or give --force to replace it',
    situations: {
      exists: '{path} exists already; nothing was written (choose another file, or give --force to replace it)',
      appeared: '{path} appeared while it was being written; nothing was replaced (give --force to replace it)',
    },
  },
  FILE_IS_STORE: {
    code: 'MIRA_ERR_FILE_IS_STORE',
    message:
      'the path names a file a store of this runtime has open (a database or its side file); nothing was written',
    fix: 'choose another path; --force never replaces a store',
    template:
      '{path} is {protectedPath}, which a store of this runtime has open; nothing was written (--force never replaces a store)',
  },
  FILE_WRITE_FAILED: {
    code: 'MIRA_ERR_FILE_WRITE_FAILED',
    message: 'a file could not be written (its directory is missing or not writable, the disk is full)',
    fix: 'fix the path or permissions the message names',
    situations: {
      notRegular: '{path} is not a regular file; nothing was written',
      failed: 'cannot write {path}: {reason}',
    },
  },
  CONSOLE_UNTERMINATED_QUOTE: {
    code: 'MIRA_ERR_CONSOLE_UNTERMINATED_QUOTE',
    message: 'a console line has an opening quote without its closing one',
    fix: 'close the quote; write \\" for a quote inside quotes',
    template:
      'the quote opened at column {column} is not closed; end the text with " (write \\" for a quote inside it)',
  },
  CONSOLE_UNKNOWN_FLAG: {
    code: 'MIRA_ERR_CONSOLE_UNKNOWN_FLAG',
    message: 'a console command got an option it does not have',
    fix: 'see help <command>',
    template: '"{name}" has no flag {text} (accepted: {accepted}); see "help {name}"',
  },
  CONSOLE_FLAG_VALUE_MISSING: {
    code: 'MIRA_ERR_CONSOLE_FLAG_VALUE_MISSING',
    message: 'a console option that takes a value got none',
    fix: 'give the value after the option',
    situations: {
      named: '--{flag} needs a value {valueName}; see "help {name}"',
      unnamed: '--{flag} needs a value; see "help {name}"',
    },
  },
  CONSOLE_FLAG_REPEATED: {
    code: 'MIRA_ERR_CONSOLE_FLAG_REPEATED',
    message: 'a console option that may appear once appeared twice',
    fix: 'give it once',
    template: '--{flag} may be given only once; see "help {name}"',
  },
  CONSOLE_USAGE: {
    code: 'MIRA_ERR_CONSOLE_USAGE',
    message: 'a console command got the wrong number or kind of arguments',
    fix: 'see help <command>',
    situations: {
      noUtterance: 'an operator episode needs an utterance',
      say: 'usage: say <text>; give the words to say',
      synopsis: 'usage: {synopsis}{more}',
    },
  },
  CONSOLE_UNKNOWN_COMMAND: {
    code: 'MIRA_ERR_CONSOLE_UNKNOWN_COMMAND',
    message: 'no console command has that name',
    fix: 'type help to list the commands; say <text> talks to the robot',
    situations: {
      nearMiss: '"{text}" is not a command; did you mean "{suggestion}"? (say … talks to the robot)',
      prefix: 'no command "{prefix}"; type "help" to list the commands',
    },
  },
  COGNITION_NOT_CONFIGURED: {
    code: 'MIRA_ERR_COGNITION_NOT_CONFIGURED',
    message: 'an utterance or episode needs a cognition plugin the profile does not have',
    fix: 'add @mira/plugin-openai (or another cognition plugin) to the profile',
    situations: {
      episode: 'cognition is not configured in this profile; add a cognition plugin (e.g. @mira/plugin-openai)',
      line: 'cognition is not configured in this profile, so this line was not sent to a model; add a cognition plugin (e.g. @mira/plugin-openai) to the profile, or type "help" for commands',
    },
  },
  TEXT_EMPTY: {
    code: 'MIRA_ERR_TEXT_EMPTY',
    message: 'a name or text is empty after trimming',
    fix: 'give some text',
    situations: {
      notText: '{what} must be text',
      summary: 'summary is empty; give the memory a summary',
      value: 'value is empty; leave it out or give text',
      field: '{what} is empty; give a non-empty {what}',
    },
  },
  TEXT_CONTROL_CHARACTER: {
    code: 'MIRA_ERR_TEXT_CONTROL_CHARACTER',
    message: 'text holds a control or bidirectional-override character',
    fix: 'remove the character the message names',
    situations: {
      lineBreak: '{what} contains the control character U+{hex} at position {index}; a {what} is one line without tabs',
      formatCharacter:
        '{what} contains the invisible format character U+{hex} at position {index}; remove it and try again',
      controlCharacter: '{what} contains the control character U+{hex} at position {index}; remove it and try again',
    },
  },
  TEXT_TOO_LONG: {
    code: 'MIRA_ERR_TEXT_TOO_LONG',
    message: 'text is longer than its limit',
    fix: 'shorten it to the limit the message names',
    situations: { field: '{what} is longer than {max} characters; shorten it' },
  },
  TOKEN_INVALID: {
    code: 'MIRA_ERR_TOKEN_INVALID',
    message: 'a type, kind, role, predicate or source kind is not a token',
    fix: 'use lower-case letters, digits and _ (e.g. person, prefers_drink), at most 64 characters',
    situations: {
      token:
        '{what} must be a token of letters a-z, digits and underscores, starting with a letter, at most {max} characters',
    },
  },
  CLI_USAGE: {
    code: 'MIRA_ERR_CLI_USAGE',
    message: 'the mira command got arguments it does not take',
    fix: 'see mira --help',
    situations: {
      unexpected: 'unexpected argument "{arg}"; see mira --help',
      takesNoValue: '{arg} takes no value; see mira --help',
      explainOnlyCheck: 'unexpected argument "--explain"; it is for mira check',
      profileNeedsValue: '--profile needs a profile directory or profile.toml',
      profileMissing: 'missing --profile <dir|profile.toml>, e.g. mira --profile profiles/mira-sim',
    },
  },
  CLI_COMMAND_INVALID: {
    code: 'MIRA_ERR_CLI_COMMAND_INVALID',
    message: 'a package declares a mira command that cannot be used (malformed, taken twice, or not loadable)',
    fix: 'fix the package.json "mira.commands" entry the message names, or reinstall or build that package',
    situations: {
      notObject: '{file}: "mira.commands" must be an object of command names; fix or remove it',
      builtIn: '{file}: "mira.commands" names "{name}", which is one of mira\'s own commands; fix or remove it',
      badName: '{file}: "mira.commands" names "{name}", which is not a command name (a-z, 0-9, -); fix or remove it',
      missingField: '{file}: "mira.commands" "{name}" needs a "{key}" string; fix or remove it',
      outsidePackage:
        '{file}: "mira.commands" "{name}" names a module outside its package ({module}); fix or remove it',
      clash: 'both {packageName} and {otherPackage} declare the command "mira {name}"; uninstall one of them',
      loadFailed:
        'the command "mira {name}" of {packageName} could not be loaded from {module}: {reason}; reinstall {packageName} (or build it: npm run build)',
      noRun: 'the command "mira {name}" of {packageName}: {module} exports no run(context) function',
    },
  },
  INTERNAL: {
    code: 'MIRA_ERR_INTERNAL',
    message: 'something failed that Mira did not anticipate',
    fix: 'report it with the log on stderr, which keeps the cause',
    situations: {
      alreadyStarted: 'the application was already started',
      mindView: "the Mind view failed (error {id}); the details are in the runtime's log",
    },
  },
});

/** The errors of cognition, raised by the episode engine and by providers. */
export const CognitionErrors = defineErrors('@mira/core', {
  PROVIDER: {
    code: 'MIRA_ERR_COGNITION_PROVIDER',
    message: 'the model server answered with an error status',
    template: 'the model server at {server} answered with an error ({status}): {answer}',
    fix: 'check the model name and the server; the message has its answer',
  },
  UNREACHABLE: {
    code: 'MIRA_ERR_COGNITION_UNREACHABLE',
    message: 'the model server could not be reached',
    template:
      'cannot reach the model server at {server}; check that it runs and that OPENAI_BASE_URL or [openai] base_url is right',
    fix: 'start the server or fix OPENAI_BASE_URL / [openai] base_url',
  },
  TIMEOUT: {
    code: 'MIRA_ERR_COGNITION_TIMEOUT',
    message: 'the model server did not answer in time',
    template:
      'the model server at {server} did not answer within {timeoutMs} ms; try again, or raise [openai] timeout_ms',
    fix: 'raise [openai] timeout_ms or use a faster model',
  },
  AUTH: {
    code: 'MIRA_ERR_COGNITION_AUTH',
    message: 'the model server refused the API key, or needs one that is not set',
    template: 'the model server at {server} refused the request ({status}); {hint}',
    fix: 'set the variable [openai] api_key_env names (OPENAI_API_KEY by default)',
  },
  MALFORMED: {
    code: 'MIRA_ERR_COGNITION_MALFORMED',
    message: 'the model answered with something that is neither text nor a valid tool call',
    fix: 'try again, or use a model that supports strict function tools',
    situations: {
      noReply: 'the model answered with neither text nor a tool call; the episode ended without a reply',
      noChoices: 'the model server answered without a message (no choices); the episode ended',
      notFunctionCall: 'the model server sent a tool call that is not a function call; the episode ended',
      unreadable: "the model server's answer could not be understood ({answer}); the episode ended",
      streamedToolCall: 'the model server streamed a tool call without an id or name; the episode ended',
    },
  },
  CONTEXT_OVERFLOW: {
    code: 'MIRA_ERR_COGNITION_CONTEXT_OVERFLOW',
    message: "the request did not fit in the model's context",
    fix: "raise the server's context size (llama-server -c) or set [openai] context_tokens; Mira drops the oldest turns first",
    template:
      'the model server at {server} refused the request as longer than its context ({status}): {answer}; it did not fit even without the older turns of working memory',
  },
  STEP_LIMIT: {
    code: 'MIRA_ERR_COGNITION_STEP_LIMIT',
    message: 'an episode reached its bound on model calls without a reply',
    fix: 'ask again more simply',
    template:
      'the episode reached its bound of {maxSteps} model calls without a reply and was stopped; ask again more simply',
  },
  DUPLICATE_PROVIDER: {
    code: 'MIRA_ERR_COGNITION_DUPLICATE_PROVIDER',
    message: 'two plugins registered a cognition provider',
    fix: 'keep one cognition plugin in the profile',
    template:
      'plugin {owner} registered a cognition provider, but plugin {owner2} already did; keep one cognition plugin in the profile',
  },
});

/** The codes of `@mira/core` by key. */
export const CoreErrorCodes = CoreErrors.codes;
/** Every error code of `@mira/core` (besides cognition). */
export type CoreErrorCode = (typeof CoreErrorCodes)[keyof typeof CoreErrorCodes];
/** The cognition codes by key. */
export const CognitionErrorCodes = CognitionErrors.codes;
/** Every cognition error code. */
export type CognitionErrorCode = (typeof CognitionErrorCodes)[keyof typeof CognitionErrorCodes];

/**
 * An error with a stable `code` from a catalogue. The message reads
 * `CODE: what happened, and what to do`; a lower-layer error rides in `cause`.
 *
 * @example
 * throw new MiraError(CoreErrorCodes.CONFIG_INVALID, 'profile.toml: /memory/enabled must be boolean');
 */
export class MiraError<C extends string = string> extends Error {
  /** The stable code, e.g. `MIRA_ERR_CONFIG_INVALID`. */
  readonly code: C;
  /** The message without the leading code. */
  readonly detail: string;

  constructor(code: C, detail: string, options?: { cause?: unknown }) {
    super(`${code}: ${detail}`, options);
    this.name = 'MiraError';
    this.code = code;
    this.detail = detail;
  }
}

/** True when `value` is a {@link MiraError}, optionally with the given code. */
export function isMiraError(value: unknown, code?: string): value is MiraError {
  return value instanceof MiraError && (code === undefined || value.code === code);
}

/**
 * Converts anything thrown into a {@link MiraError}, keeping the original as
 * `cause`. Used at boundaries so raw library errors never reach the console.
 */
export function toMiraError(error: unknown, code: string = CoreErrorCodes.INTERNAL, context?: string): MiraError {
  if (error instanceof MiraError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new MiraError(code, context ? `${context}: ${text}` : text, { cause: error });
}

/**
 * A failure as a person reads it on stderr: `mira: CODE: message` (the line scripts match), then a line
 * with what to do about it ({@link whatToDo}) when the catalogue says.
 *
 * @example
 * process.stderr.write(failureText(error)); // mira: MIRA_ERR_…: …\nmira: what to do: …\n
 */
export function failureText(error: unknown, prefix = 'mira'): string {
  const failure = toMiraError(error);
  const fix = whatToDo(failure);
  return `${prefix}: ${failure.message}\n${fix === undefined ? '' : `${prefix}: what to do: ${fix}\n`}`;
}
