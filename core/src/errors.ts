/**
 * The error catalogue of `@mira/core` (manifest, plugins, registries, console, text and CLI; cognition's is
 * in cognition/errors.ts), and the catalogue mechanism every package uses ({@link defineErrors}, in
 * error-catalogue.ts). Each code is defined once, with what it means; each situation it is raised in with
 * its wording and what to do. The error reference (docs/reference/errors.md) is generated from the catalogues.
 */
import { CognitionErrors } from './cognition/errors.js';
import { MiraError, defineErrors, whatToDo } from './error-catalogue.js';

export {
  MiraError,
  defineErrors,
  fillTemplate,
  isErrorCatalogue,
  isMiraError,
  whatToDo,
  type BareKey,
  type BorrowedEntry,
  type ErrorArgs,
  type ErrorArgsOf,
  type ErrorCatalogue,
  type ErrorDefinitions,
  type ErrorEntry,
  type Situation,
  type SituationKey,
  type TemplateParams,
  type TemplatePlaceholders,
} from './error-catalogue.js';
export { CognitionErrorCodes, CognitionErrors, type CognitionErrorCode } from './cognition/errors.js';

/** The errors of `@mira/core`: manifest, plugins, registries, console, text and CLI. */
export const CoreErrors = defineErrors('@mira/core', {
  MANIFEST_NOT_FOUND: {
    code: 'MIRA_ERR_MANIFEST_NOT_FOUND',
    message: 'the profile manifest does not exist',
    fix: 'pass --profile a profile directory holding profile.toml, or the file itself',
    situations: {
      notProfilePackage: {
        message:
          '{pkgJson}: package {name} is not a Mira profile; its package.json needs "mira": { "profile": "profile.toml" }',
        fix: 'add "mira": { "profile": "profile.toml" } to that package.json, or extend a profile package instead',
      },
      extendsMissing: {
        message: '{where}: extends "{spec}", which does not exist',
        fix: "fix the path in [profile] extends (it is relative to the manifest's directory)",
      },
      extendsUnknown: {
        message:
          '{where}: extends "{spec}", which is neither a path nor an installed profile package (npm install {spec})',
        fix: 'install the profile package (npm install <name>), or write a path starting with ./ or ../',
      },
      unreadable: {
        message: '{path}: cannot be read ({reason}){via}',
        fix: 'make the file readable (check its permissions, and that it is a file), or pass another profile',
      },
      profileArgument: {
        message:
          '{profileArg}: no such file, directory or installed profile package; pass a profile directory, its {manifestFile}, or a profile package name',
        fix: 'check the spelling of --profile; a relative path is relative to the working directory',
      },
      noManifest: {
        message: '{file}: no {manifestFile} here; create one (see docs/integrator.md, "Profile manifest")',
        fix: 'create profile.toml in that directory, or pass --profile the directory that has one',
      },
    },
  },
  MANIFEST_SYNTAX: {
    code: 'MIRA_ERR_MANIFEST_SYNTAX',
    message: 'the profile manifest is not valid TOML',
    fix: 'fix the TOML at the line and column the message names',
    template: '{path}:{line}:{column}: invalid TOML: {problem}; fix the line and start again',
    situations: {
      unterminatedString: {
        message:
          '{path}:{line}:{column}: invalid TOML: a string on line {line} is not closed; end it with the quote it opens with, on the same line',
        fix: 'close the string with its quote (" or \') before the line ends; text of several lines goes in """ … """',
      },
    },
  },
  MANIFEST_INVALID: {
    code: 'MIRA_ERR_MANIFEST_INVALID',
    message: 'the [profile] table is missing or malformed',
    fix: 'give [profile] a name and a plugins list, as docs/integrator.md ("Profile manifest") shows',
    situations: {
      extendsCycle: {
        message: 'extends cycle: {chain}; remove one of the links',
        fix: 'remove one profile of the chain from the [profile] extends of the one before it',
      },
      extendsNotList: {
        message: '{path}: [profile] extends must be a list of profile packages or paths, e.g. ["@mira/profile-sim"]',
        fix: 'write extends as a list in brackets, even for one profile: extends = ["../base"]',
      },
      unsetVariable: {
        message: '{origin}: {at} uses ${{name}}, which is not set; export {name}=… or write ${{name}:-default}',
        fix: 'export the variable before starting mira, or give a default in the manifest: ${NAME:-value}',
      },
      topLevelKey: {
        message:
          '{path}: top-level key "{key}" must be inside a table; put it under [profile] or the table of the plugin it configures',
        fix: 'move the key under [profile] or under the table of the plugin it configures',
      },
      noProfile: {
        message: '{path}: missing [profile] table; add [profile] with name, description and plugins',
        fix: 'add a [profile] table with name, description and plugins, as docs/integrator.md shows',
      },
      profileKey: {
        message: '{path}: [profile] has unknown key "{key}"; allowed keys are {allowed}',
        fix: "fix the key's spelling, or move it to the table of the plugin it configures",
      },
      startTimeout: {
        message:
          '{path}: [profile] start_timeout_ms must be an integer from 100 to 600000 (ms each plugin may take to start)',
        fix: 'write start_timeout_ms as a whole number of milliseconds from 100 to 600000, without quotes',
      },
      name: {
        message: "{path}: [profile] name must be a non-empty string: the robot's name (the runtime self)",
        fix: 'give [profile] name = "<the robot\'s name>" in quotes',
      },
      description: {
        message: '{path}: [profile] description must be a string',
        fix: 'write description in quotes, or leave it out',
      },
      plugins: {
        message:
          '{path}: [profile] plugins must be a list of package names or relative paths, e.g. ["@mira/plugin-memory"]',
        fix: 'write plugins as a list of quoted package names or ./paths in brackets',
      },
      workingMemoryKey: {
        message: '{path}: [working_memory] has unknown key "{key}"; the only key is max_entries',
        fix: 'remove the key; [working_memory] takes only max_entries',
      },
      maxEntries: {
        message: '{path}: [working_memory] max_entries must be an integer from 1 to 10000',
        fix: 'write max_entries as a whole number from 1 to 10000, without quotes',
      },
    },
  },
  CONFIG_INVALID: {
    code: 'MIRA_ERR_CONFIG_INVALID',
    message: "a plugin's config section does not match its schema",
    fix: 'fix the key at the JSON path the message names',
    situations: {
      schema: {
        message: '{path}: plugin {name}: [{section}] {problem}',
        fix: "fix the key at the JSON path the message names; the plugin's README lists its keys and types",
      },
    },
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
      path: {
        message:
          '{path}: plugin "{specifier}" not found at {file}; fix the path (it is relative to the manifest\'s directory)',
        fix: "fix the path in [profile] plugins: it is relative to the manifest's directory, not the working directory",
      },
      package: {
        message:
          '{path}: plugin package "{specifier}" not found from {dir} nor from the Mira installation; install it (npm install {specifier}) or fix the name',
        fix: "install the package where the profile lives (npm install <name>), or fix the name's spelling",
      },
    },
  },
  PLUGIN_INVALID: {
    code: 'MIRA_ERR_PLUGIN_INVALID',
    message: 'a module is not a Mira plugin, or its setup() returned something else',
    fix: 'export default { name, version, setup(kernel, config) } returning { start?, stop? }',
    situations: {
      notPlugin: {
        message:
          '{path}: plugin "{specifier}" is not a Mira plugin: {why}; export default { name, version, setup(kernel, config) }',
        fix: 'make the module export default definePlugin({ name, version, setup(kernel, config) })',
      },
      coreTable: {
        message: "{path}: plugin {name} claims the table [{section}], which belongs to Mira's core",
        fix: 'give the plugin a configSection of its own name (profile and working_memory are taken)',
      },
      configSchema: {
        message: 'plugin {name} has an invalid configSchema: {reason}',
        fix: "fix the plugin's configSchema: a JSON schema of type object that ajv compiles",
      },
      instanceNotObject: {
        message: '{path}: plugin {name}: setup() must return an object ({ start?, stop? }) or nothing',
        fix: 'make setup() return { start?, stop? } or nothing',
      },
      instanceMember: {
        message: '{path}: plugin {name}: the instance\'s "{member}" must be a function',
        fix: 'make that member of the object setup() returns a function, or leave it out',
      },
    },
  },
  PLUGIN_LOAD_FAILED: {
    code: 'MIRA_ERR_PLUGIN_LOAD_FAILED',
    message: 'a plugin module could not be loaded: it threw while loading, or something it imports is missing',
    fix: 'fix the module: the text after "failed to load:" is what importing it threw',
    situations: {
      threw: {
        message: '{path}: plugin "{specifier}" failed to load: {reason}',
        fix: 'fix the module\'s code at the error after "failed to load:", or rebuild the plugin (npm run build)',
      },
      importMissing: {
        message: '{path}: plugin "{specifier}" failed to load: {reason}',
        fix: "install the package the message says cannot be found: npm install <name> in the plugin's directory",
      },
      fileMissing: {
        message: '{path}: plugin "{specifier}" failed to load: {reason}',
        fix: 'a file the plugin imports is not there: build the plugin (npm run build) if it is a built file, or fix the import path the message names',
      },
      typeScript: {
        message:
          '{path}: plugin "{specifier}" failed to load: {reason}; Mira runs JavaScript: build the plugin (tsc) and name the built .js file, or its package',
        fix: 'build the plugin (npx tsc) and name the built .js file in [profile] plugins, or its package',
      },
      coreMissing: {
        message:
          '{path}: plugin "{specifier}" failed to load: {reason}; the plugin imports @mira/core, which is not installed where it lives: run npm install <path to Mira>/core there (or install a packed tarball: npm pack in Mira\'s core, then npm install the .tgz)',
        fix: "in the plugin's directory, run npm install <path to Mira>/core (or npm install the .tgz npm pack makes in Mira's core)",
      },
    },
  },
  PLUGIN_DUPLICATE: {
    code: 'MIRA_ERR_PLUGIN_DUPLICATE',
    message: 'a plugin or a config table is named twice',
    fix: 'remove one of the two from the profile',
    situations: {
      listedTwice: {
        message: '{path}: plugin {name} is listed twice ("{previous}" and "{specifier}"); remove one',
        fix: 'remove one of the two entries from [profile] plugins (a profile it extends may list it already)',
      },
      tableClaimed: {
        message: '{path}: plugins {other} and {name} both claim the table [{section}]',
        fix: 'remove one of the two plugins from [profile] plugins; two plugins cannot read one table',
      },
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
    fix: "fix what the named plugin's setup() threw (the text after its name); if the plugin is not yours, report it to its author",
  },
  PLUGIN_START_FAILED: {
    code: 'MIRA_ERR_PLUGIN_START_FAILED',
    message: "a plugin's start() failed; the plugins that started were stopped",
    fix: "fix what the named plugin's start() needs (the file, device or server after its name), or remove it from [profile] plugins",
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
    fix: "nothing was skipped; if it repeats, report it to the plugin's author with the log on stderr",
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
      consoleCommand: {
        message:
          'plugin {owner} registered a console command with an invalid name {given} or no run(); use lower-case words',
        fix: 'name the command in lower-case words (e.g. "battery status") and give it a run() function',
      },
      toolName: {
        message:
          'tool name {given} is not valid: a tool name is lower-case letters, digits and _, starting with a letter, at most 64 characters',
        fix: 'rename the tool in lower-case letters, digits and _ (e.g. read_battery), at most 64 characters',
      },
      toolRun: { message: 'tool "{name}" has no run() function', fix: 'give the tool a run(args, context) function' },
      toolKind: {
        message: 'tool "{name}" of plugin {owner}: kind must be "acquisition" or "effect"',
        fix: 'set kind: "acquisition" for a read-only tool, "effect" for one that changes the world or stored state',
      },
      toolOrigins: {
        message: 'tool "{name}" of plugin {owner}: origins must list some of {origins}',
        fix: 'set origins to a non-empty list of the episode origins the message lists, e.g. ["operator"]',
      },
      toolForAgents: {
        message: 'tool "{name}" of plugin {owner}: a tool for other agents must be an acquisition (read-only) tool',
        fix: 'make the tool an acquisition, or do not offer it to other agents',
      },
      store: {
        message: 'plugin {pluginName} registered a store without a key (storeKey<T>(name)) or open()',
        fix: 'register the store with key: storeKey<T>(name) and an open() function',
      },
      sensor: {
        message: 'plugin {pluginName} registered a sensor without a valid id',
        fix: 'give the sensor an id of lower-case letters, digits, _ and -',
      },
    },
  },
  TOOL_SCHEMA_NOT_STRICT: {
    code: 'MIRA_ERR_TOOL_SCHEMA_NOT_STRICT',
    message: "a tool's parameter schema is not strict",
    fix: 'list every property in required, make optional ones nullable, set additionalProperties: false',
    situations: {
      invalid: {
        message: 'tool "{name}" of plugin {owner}: invalid JSON schema: {reason}',
        fix: "fix the tool's parameters at the place the message quotes: it must compile as a JSON schema",
      },
      notObject: {
        message: 'tool "{name}" of plugin {owner}: parameters must be a JSON schema of type "object"',
        fix: 'make parameters { type: "object", properties: {…}, required: […], additionalProperties: false }',
      },
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
    fix: 'enable the plugin that registers it in [profile] plugins; a plugin reads stores in start(), not in setup()',
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
      appeared: {
        message: '{path} appeared while it was being written; nothing was replaced (give --force to replace it)',
        fix: 'find what else writes that file; give --force to replace it, or choose another path',
      },
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
      notRegular: {
        message: '{path} is not a regular file; nothing was written',
        fix: 'choose a path that is a file or does not exist yet (not a directory or a device)',
      },
      failed: {
        message: 'cannot write {path}: {reason}',
        fix: 'create the directory, make it writable or free disk space, as the reason says; or choose another path',
      },
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
    fix: 'use one of the flags the message lists; help <command> explains each',
    template: '"{name}" has no flag {text} (accepted: {accepted}); see "help {name}"',
  },
  CONSOLE_FLAG_VALUE_MISSING: {
    code: 'MIRA_ERR_CONSOLE_FLAG_VALUE_MISSING',
    message: 'a console option that takes a value got none',
    fix: 'give the value after the option',
    situations: {
      named: {
        message: '--{flag} needs a value {valueName}; see "help {name}"',
        fix: 'write the value the message names right after the flag (quote it if it has spaces)',
      },
      unnamed: {
        message: '--{flag} needs a value; see "help {name}"',
        fix: 'write a value right after the flag (quote it if it has spaces)',
      },
    },
  },
  CONSOLE_FLAG_REPEATED: {
    code: 'MIRA_ERR_CONSOLE_FLAG_REPEATED',
    message: 'a console option that may appear once appeared twice',
    fix: 'give the flag once',
    template: '--{flag} may be given only once; see "help {name}"',
  },
  CONSOLE_USAGE: {
    code: 'MIRA_ERR_CONSOLE_USAGE',
    message: 'a console command got the wrong number or kind of arguments',
    fix: 'see help <command>',
    situations: {
      noUtterance: {
        message: 'an operator episode needs an utterance',
        fix: 'give the words the operator says',
      },
      say: { message: 'usage: say <text>; give the words to say', fix: 'write the words after say: say hello' },
      synopsis: {
        message: 'usage: {synopsis}{more}',
        fix: 'give the arguments as the usage line shows; help <command> explains each',
      },
    },
  },
  CONSOLE_UNKNOWN_COMMAND: {
    code: 'MIRA_ERR_CONSOLE_UNKNOWN_COMMAND',
    message: 'no console command has that name',
    fix: 'type help to list the commands; say <text> talks to the robot',
    situations: {
      nearMiss: {
        message: '"{text}" is not a command; did you mean "{suggestion}"? (say … talks to the robot)',
        fix: 'type the command the message suggests, or start the line with say to talk to the robot',
      },
      prefix: {
        message: 'no command "{prefix}"; type "help" to list the commands',
        fix: 'type help to list the commands',
      },
    },
  },
  COGNITION_NOT_CONFIGURED: {
    code: 'MIRA_ERR_COGNITION_NOT_CONFIGURED',
    message: 'an utterance or episode needs a cognition plugin the profile does not have',
    fix: 'add @mira/plugin-openai (or another cognition plugin) to the profile',
    situations: {
      episode: 'cognition is not configured in this profile; add a cognition plugin (e.g. @mira/plugin-openai)',
      line: {
        message:
          'cognition is not configured in this profile, so this line was not sent to a model; add a cognition plugin (e.g. @mira/plugin-openai) to the profile, or type "help" for commands',
        fix: 'add @mira/plugin-openai to [profile] plugins to talk to the robot; type help for the commands',
      },
    },
  },
  TEXT_EMPTY: {
    code: 'MIRA_ERR_TEXT_EMPTY',
    message: 'a name or text is empty after trimming',
    fix: 'give some text',
    situations: {
      notText: { message: '{what} must be text', fix: 'give the value as a string' },
      summary: { message: 'summary is empty; give the memory a summary', fix: 'give the memory a summary in words' },
      value: { message: 'value is empty; leave it out or give text', fix: 'leave --value out, or give it text' },
      field: { message: '{what} is empty; give a non-empty {what}', fix: 'give it text that is not only spaces' },
    },
  },
  TEXT_CONTROL_CHARACTER: {
    code: 'MIRA_ERR_TEXT_CONTROL_CHARACTER',
    message: 'text holds a control or bidirectional-override character',
    fix: 'remove the character the message names',
    situations: {
      lineBreak: {
        message: '{what} contains the control character U+{hex} at position {index}; a {what} is one line without tabs',
        fix: 'write it on one line: replace the line break or tab with a space',
      },
      formatCharacter: {
        message: '{what} contains the invisible format character U+{hex} at position {index}; remove it and try again',
        fix: 'retype the text around that position (pasted text can carry invisible characters)',
      },
      controlCharacter: {
        message: '{what} contains the control character U+{hex} at position {index}; remove it and try again',
        fix: 'remove the character at that position (pasted text can carry control characters)',
      },
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
      unexpected: {
        message: 'unexpected argument "{arg}"; see mira --help',
        fix: 'remove the argument, or check its spelling in mira --help',
      },
      takesNoValue: { message: '{arg} takes no value; see mira --help', fix: 'give the flag without =value' },
      explainOnlyCheck: {
        message: 'unexpected argument "--explain"; it is for mira check',
        fix: 'run mira check --explain --profile <dir>',
      },
      profileNeedsValue: {
        message: '--profile needs a profile directory or profile.toml',
        fix: 'write the profile directory after --profile, e.g. --profile profiles/mira-sim',
      },
      profileMissing: {
        message: 'missing --profile <dir|profile.toml>, e.g. mira --profile profiles/mira-sim',
        fix: 'add --profile <dir>, e.g. mira --profile profiles/mira-sim',
      },
    },
  },
  CLI_COMMAND_INVALID: {
    code: 'MIRA_ERR_CLI_COMMAND_INVALID',
    message: 'a package declares a mira command that cannot be used (malformed, taken twice, or not loadable)',
    fix: 'fix the package.json "mira.commands" entry the message names, or reinstall or build that package',
    situations: {
      notObject: {
        message: '{file}: "mira.commands" must be an object of command names; fix or remove it',
        fix: 'write "mira": { "commands": { "<name>": { "module": "./dist/command.js", "summary": "…" } } }',
      },
      builtIn: {
        message: '{file}: "mira.commands" names "{name}", which is one of mira\'s own commands; fix or remove it',
        fix: 'give the command another name in that package.json',
      },
      badName: {
        message: '{file}: "mira.commands" names "{name}", which is not a command name (a-z, 0-9, -); fix or remove it',
        fix: 'rename the command in lower-case letters, digits and -',
      },
      missingField: {
        message: '{file}: "mira.commands" "{name}" needs a "{key}" string; fix or remove it',
        fix: 'add the field the message names to the command in that package.json',
      },
      outsidePackage: {
        message: '{file}: "mira.commands" "{name}" names a module outside its package ({module}); fix or remove it',
        fix: 'point "module" at a file inside the package, e.g. ./dist/command.js',
      },
      clash: {
        message: 'both {packageName} and {otherPackage} declare the command "mira {name}"; uninstall one of them',
        fix: 'uninstall one of the two packages (npm uninstall <name>)',
      },
      loadFailed: {
        message:
          'the command "mira {name}" of {packageName} could not be loaded from {module}: {reason}; reinstall {packageName} (or build it: npm run build)',
        fix: 'reinstall the package, or build it (npm run build) if it is a workspace of yours',
      },
      noRun: {
        message: 'the command "mira {name}" of {packageName}: {module} exports no run(context) function',
        fix: 'export async function run(context) from that module, or fix "module" to name the one that does',
      },
    },
  },
  INTERNAL: {
    code: 'MIRA_ERR_INTERNAL',
    message: 'something failed that Mira did not anticipate',
    fix: 'report it with the log on stderr, which keeps the cause',
    situations: {
      alreadyStarted: {
        message: 'the application was already started',
        fix: 'call start() once per application; boot another one for a second run',
      },
      mindView: {
        message: "the Mind view failed (error {id}); the details are in the runtime's log",
        fix: "report it with the runtime's log lines for that error id; reload the page to go on",
      },
    },
  },
});

/** The codes of `@mira/core` by key. */
export const CoreErrorCodes = CoreErrors.codes;
/** Every error code of `@mira/core` (besides cognition). */
export type CoreErrorCode = (typeof CoreErrorCodes)[keyof typeof CoreErrorCodes];

/**
 * Converts anything thrown into a {@link MiraError}, keeping the original as `cause`. Used at boundaries
 * so raw library errors never reach the console. `code` is one of core's (the default `INTERNAL`): its fix
 * goes with it.
 */
export function toMiraError(error: unknown, code: string = CoreErrorCodes.INTERNAL, context?: string): MiraError {
  if (error instanceof MiraError) return error;
  const text = error instanceof Error ? error.message : String(error);
  const fix = (CoreErrors.entry(code) ?? CognitionErrors.entry(code))?.fix;
  return new MiraError(code, context ? `${context}: ${text}` : text, { cause: error, fix });
}

/**
 * A failure as a person reads it on stderr: `mira: CODE: message` (the line scripts match), then a line
 * with what to do about it ({@link whatToDo}) when the error says.
 *
 * @example
 * process.stderr.write(failureText(error)); // mira: MIRA_ERR_…: …\nmira: what to do: …\n
 */
export function failureText(error: unknown, prefix = 'mira'): string {
  const failure = toMiraError(error);
  const fix = whatToDo(failure);
  return `${prefix}: ${failure.message}\n${fix === undefined ? '' : `${prefix}: what to do: ${fix}\n`}`;
}
