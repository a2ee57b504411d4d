import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { MiraError } from '../core/src/errors.js';
import { validateConfig, type LoadedPlugin } from '../core/src/loader.js';
import type { ProfileManifest } from '../core/src/manifest.js';
import type { MiraPlugin } from '../core/src/plugin.js';
import { precompiledFor } from '../core/src/schemas.js';
import { REPO_ROOT } from './tools/error-reference.js';
import { CONFIG_VALIDATOR, renderValidators } from './tools/precompiled-validators.js';

type Schema = Record<string, unknown>;

/** The plugins that have a precompiled config validator, by package name. */
async function pluginsWithValidators(): Promise<Map<string, MiraPlugin<unknown>>> {
  const found = new Map<string, MiraPlugin<unknown>>();
  for (const path of (await renderValidators()).keys()) {
    if (!path.endsWith(CONFIG_VALIDATOR)) continue;
    const dir = path.slice(0, -CONFIG_VALIDATOR.length);
    const { name } = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { name: string };
    found.set(name, ((await import(name)) as { default: MiraPlugin<unknown> }).default);
  }
  return found;
}

/**
 * Values for a schema: mostly its own (its default, enum members, bounds and just past them, a value of each of
 * its types), sometimes a wrong type or any JSON. A `lean` value keeps to the default, the enum and the
 * inclusive bounds, so that tables of many keys are still accepted often enough to compare both answers.
 */
function valuesFor(schema: Schema, depth = 0, lean = false): fc.Arbitrary<unknown> {
  const own: Array<fc.Arbitrary<unknown>> = [];
  if (schema.default !== undefined) own.push(fc.constant(structuredClone(schema.default)));
  if (Array.isArray(schema.enum)) own.push(fc.constantFrom(...(schema.enum as unknown[])));
  if (lean && own.length > 0) return fc.oneof(...own);
  const bounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems']
    .map((k) => schema[k])
    .filter((v): v is number => typeof v === 'number');
  if (bounds.length > 0 && !lean) {
    own.push(fc.constantFrom(...bounds.flatMap((b) => [b, b - 1, b + 1, b + 0.5, 'x'.repeat(Math.max(0, b))])));
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (types.includes('string')) own.push(fc.constantFrom('x', 'a_b', 'MIRA_PG_URL', 'ent12', 'http://127.0.0.1:9/v1'));
  if (typeof schema.pattern === 'string') own.push(fc.stringMatching(new RegExp(schema.pattern, 'u')));
  if (types.includes('boolean')) own.push(fc.boolean());
  if (types.includes('number') || types.includes('integer')) own.push(fc.constantFrom(0, 1, 5, 0.5, 100));
  if (types.includes('null')) own.push(fc.constant(null));
  if (depth < 3) {
    if (types.includes('object') && schema.properties) own.push(tableFor(schema, depth + 1, lean));
    if (types.includes('array') && schema.items && !Array.isArray(schema.items)) {
      own.push(fc.array(valuesFor(schema.items as Schema, depth + 1, lean), { maxLength: 3 }));
    }
    for (const branches of [schema.anyOf, schema.oneOf]) {
      if (Array.isArray(branches)) for (const b of branches as Schema[]) own.push(valuesFor(b, depth + 1, lean));
    }
  }
  if (lean && own.length > 0) return fc.oneof(...own);
  const wrong = fc.oneof(
    fc.constantFrom<unknown>('', 'x', 0, -1, 2.5, true, null, [], {}),
    fc.jsonValue({ maxDepth: 1 }),
  );
  if (own.length === 0) return wrong;
  return fc.oneof({ arbitrary: fc.oneof(...own), weight: 6 }, { arbitrary: wrong, weight: 1 });
}

/**
 * A table for an object schema: its required keys (and those its `then` requires) and up to three others
 * (each with {@link valuesFor}), sometimes a required one missing or one it does not know; a `lean` table
 * never leaves one out nor adds one.
 */
function tableFor(schema: Schema, depth = 0, lean = false): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  // Keys a `then` requires count as required: most tables have them.
  const thenRequired = ((schema.then as Schema | undefined)?.required ?? []) as string[];
  const required = [...((schema.required ?? []) as string[]), ...thenRequired].filter(
    (k, i, all) => k in properties && all.indexOf(k) === i,
  );
  const optional = Object.keys(properties).filter((k) => !required.includes(k));
  return fc
    .tuple(
      fc.subarray(optional, { maxLength: Math.min(3, optional.length) }),
      lean ? fc.constant(null) : fc.option(fc.constantFrom(...required, 'enabld', 'unknown'), { freq: 6 }),
    )
    .chain(([chosen, odd]) => {
      const keys = [...required, ...chosen].filter((k) => k !== odd);
      const table = fc.record(Object.fromEntries(keys.map((k) => [k, valuesFor(properties[k]!, depth, lean)])));
      return odd === null || odd in properties ? table : table.map((t) => ({ ...t, [odd]: 1 }));
    });
}

/** What validateConfig makes of `table` for `plugin`: the config setup would get, or the error. */
function outcome(plugin: MiraPlugin<unknown>, table: Record<string, unknown>): unknown {
  const manifest = {
    path: '/robots/lab/profile.toml',
    dir: '/robots/lab',
    tables: { [plugin.configSection!]: table },
  } as unknown as ProfileManifest;
  const entry: LoadedPlugin = { plugin, specifier: plugin.name, config: {}, sectionPresent: false };
  try {
    validateConfig(manifest, [entry]);
    return { config: entry.config };
  } catch (error) {
    return { code: (error as MiraError).code, message: (error as MiraError).message };
  }
}

describe('precompiled config validators of the plugins', function () {
  this.timeout(120_000);

  it('are current: what `npm run validators` would write now (the meta-schema one in core too)', async () => {
    const stale: string[] = [];
    for (const [path, text] of await renderValidators()) {
      let written = '';
      try {
        written = readFileSync(join(REPO_ROOT, path), 'utf8');
      } catch {
        // missing: stale
      }
      if (written !== text) stale.push(path);
    }
    expect(stale, 'run npm run validators').to.deep.equal([]);
  });

  it("are each passed as the plugin's configValidator, and match its configSchema", async () => {
    const plugins = await pluginsWithValidators();
    expect([...plugins.keys()]).to.include.members(['@mira/plugin-sim', '@mira/plugin-memory', '@mira/plugin-openai']);
    for (const [name, plugin] of plugins) {
      expect(plugin.configValidator, name).to.not.equal(undefined);
      expect(precompiledFor(plugin.configSchema!, plugin.configValidator), name).to.equal(
        plugin.configValidator!.validate,
      );
    }
  });

  it('accept and refuse every table as ajv compiling the schema does, word for word', async () => {
    for (const [name, plugin] of await pluginsWithValidators()) {
      const withoutValidator: MiraPlugin<unknown> = { ...plugin, configValidator: undefined };
      let accepted = 0;
      let refused = 0;
      fc.assert(
        // Half the tables lean to valid ones: a schema of many keys (ros2) accepts ~1 % of the others.
        fc.property(
          fc.oneof(tableFor(plugin.configSchema as Schema), tableFor(plugin.configSchema as Schema, 0, true)),
          (table) => {
            const expected = outcome(withoutValidator, structuredClone(table));
            expect(outcome(plugin, table), `${name}: ${JSON.stringify(table)}`).to.deep.equal(expected);
            if ('config' in (expected as object)) accepted += 1;
            else refused += 1;
          },
        ),
        { numRuns: 300 },
      );
      // Both answers were exercised, for every plugin, many times each.
      expect(accepted, `${name}: tables accepted`).to.be.greaterThan(10);
      expect(refused, `${name}: tables refused`).to.be.greaterThan(10);
    }
  });
});
