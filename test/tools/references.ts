/**
 * The references in docs/reference/, generated from the code:
 *
 *   errors.md  every error code (the packages' errors.ts catalogues; see error-reference.ts)
 *   config.md  every manifest key with its type, bounds and default (the kernel's tables and each
 *              plugin's configSchema)
 *   cli.md     the `mira` command (its --help, with the commands installed packages declare)
 *
 *   npm run docs        rewrite them
 *   (npm test checks they are current: test/docs.test.ts)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KERNEL_TABLES, type MiraPlugin } from '@mira/core';
import {
  ERRORS_DOC,
  REPO_ROOT,
  collectCatalogues,
  renderReference,
  withReference,
  workspacePackages,
} from './error-reference.js';

export const CONFIG_DOC = join(REPO_ROOT, 'docs/reference/config.md');
export const CLI_DOC = join(REPO_ROOT, 'docs/reference/cli.md');

type Schema = Record<string, unknown>;

/** A value as TOML writes it (strings quoted). */
const code = (v: unknown) => `\`${JSON.stringify(v)}\``;
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A schema's type in words: `integer`, `one of "a", "b"`, `list of string`, `table of number`. */
function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(', ')}`;
  if (schema.type === 'array') return `list of ${typeOf((schema.items ?? {}) as Schema)}`;
  if (schema.type === 'object') {
    if (schema.properties) return 'table';
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      return `table of ${typeOf(schema.additionalProperties as Schema)}`;
    }
    return 'table';
  }
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    return ((schema.oneOf ?? schema.anyOf) as Schema[]).map(typeOf).join(' or ');
  }
  return 'any';
}

/** A schema's bounds in words: `100 ≤ n ≤ 600000`, `matches ^…$`, `at least 1 item`. */
function boundsOf(schema: Schema): string {
  const parts: string[] = [];
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  if (low !== undefined || high !== undefined) {
    parts.push(
      [
        low === undefined ? '' : `${String(low)} ${schema.exclusiveMinimum === undefined ? '≤' : '<'} `,
        'n',
        high === undefined ? '' : ` ${schema.exclusiveMaximum === undefined ? '≤' : '<'} ${String(high)}`,
      ].join(''),
    );
  }
  if (typeof schema.pattern === 'string') parts.push(`matches \`${schema.pattern}\``);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) parts.push('not empty');
  if (typeof schema.minItems === 'number')
    parts.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  return parts.join('; ');
}

interface KeyRow {
  readonly key: string;
  readonly type: string;
  readonly fallback: string;
  readonly about: string;
}

/** Every key of a table's schema, nested ones dotted (`drive.topic`, `sensors[].id`). */
function keysOf(schema: Schema, prefix = ''): KeyRow[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows: KeyRow[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const key = `${prefix}${name}`;
    const items = property.items as Schema | undefined;
    const about = [
      required.has(name) ? 'required' : '',
      boundsOf(property),
      typeof property.description === 'string' ? property.description : '',
    ]
      .filter(Boolean)
      .join('; ');
    rows.push({
      key,
      type: typeOf(property),
      fallback: property.default === undefined ? '' : code(property.default),
      about,
    });
    if (property.type === 'object' && property.properties) rows.push(...keysOf(property, `${key}.`));
    if (items?.type === 'object' && items.properties) rows.push(...keysOf(items, `${key}[].`));
  }
  return rows;
}

function table(rows: readonly KeyRow[]): string {
  return [
    '| key | type | default | notes |',
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${r.key}\` | ${cell(r.type)} | ${cell(r.fallback)} | ${cell(r.about)} |`),
  ].join('\n');
}

/** docs/reference/config.md. */
export async function renderConfigReference(): Promise<string> {
  const sections: string[] = [];
  for (const [name, schema] of Object.entries(KERNEL_TABLES)) {
    sections.push(`## \`[${name}]\` (\`@mira/core\`)\n\n${table(keysOf(schema as Schema))}`);
  }
  for (const { name } of workspacePackages()) {
    const plugin = ((await import(name)) as { default?: MiraPlugin<unknown> }).default;
    if (!plugin?.configSection || !plugin.configSchema) continue;
    sections.push(
      `## \`[${plugin.configSection}]\` (\`${name}\`)\n\n${table(keysOf(plugin.configSchema as unknown as Schema))}`,
    );
  }
  return `# Configuration reference

<!-- generated by \`npm run docs\` from the kernel's tables and each plugin's configSchema; do not edit -->

Every key a profile manifest (\`profile.toml\`) may hold, table by table. A key left out takes its
default; a key a table does not list, or a value outside its bounds, fails start-up naming the file
and the key (\`mira check --profile <dir>\` checks a manifest without starting it; \`--explain\` prints
every key in force and the file it came from). Nested keys are dotted: \`drive.topic\` is \`topic\` in
\`[ros2.drive]\`, and \`sensors[].id\` is \`id\` in each \`[[ros2.sensors]]\`. How the tables fit together:
[Integrator guide](../integrator.md#profile-manifest).

${sections.join('\n\n')}
`;
}

/** docs/reference/cli.md. */
export function renderCliReference(): string {
  const help = execFileSync(process.execPath, [join(REPO_ROOT, 'core/bin/mira.js'), '--help'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return `# The \`mira\` command

<!-- generated by \`npm run docs\` from \`mira --help\`; do not edit -->

\`npx mira --help\` prints this; commands of installed packages are listed with the package each
comes from ([adding a command](../plugins.md#adding-a-command-to-mira)).

\`\`\`
${help.trimEnd()}
\`\`\`
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const write = (path: string, next: string) => {
    const before = readFileSync(path, { encoding: 'utf8', flag: 'a+' });
    if (before !== next) writeFileSync(path, next);
    process.stdout.write(`${path.slice(REPO_ROOT.length)}: ${before === next ? 'already current' : 'updated'}\n`);
  };
  write(ERRORS_DOC, withReference(readFileSync(ERRORS_DOC, 'utf8'), renderReference(await collectCatalogues())));
  write(CONFIG_DOC, await renderConfigReference());
  write(CLI_DOC, renderCliReference());
}
