import { parseArgs } from 'node:util';
import { failureText, terminalProgress, type Application, type CliCommandContext, type Progress } from '@mira/core';
import { MEMORY_STORE, type MemoryStore } from '@mira/memory-contract';

/** The flags of `mira memory copy` (node:util parseArgs). */
function copyArguments(context: CliCommandContext, argv: readonly string[]): { profile: string; to: string } {
  let values: { profile?: string; to?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { profile: { type: 'string', short: 'p' }, to: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    throw context.usageError(`${(error as Error).message}; see mira --help`);
  }
  const { profile, to } = values;
  if (!profile || !to) {
    throw context.usageError(
      'mira memory copy needs --profile <the robot profile (SQLite)> and --to <the fleet profile (PostgreSQL)>',
    );
  }
  return { profile, to };
}

/**
 * `mira memory copy --profile <from> --to <to>`: one profile's persistent memory copied into another's.
 * Both profiles are set up and their stores opened (nothing else starts), then the source's snapshot is
 * written into the target in one transaction, keeping IDs. A progress bar shows on a terminal.
 */
export async function run(context: CliCommandContext): Promise<number> {
  const [sub, ...rest] = context.argv;
  if (sub !== 'copy') {
    throw context.usageError(
      sub === undefined
        ? 'mira memory needs a subcommand: copy --profile <from> --to <to> (the memory console commands are in the console: mira --profile <dir>, then "memory help")'
        : `mira memory has no subcommand "${sub}"; it has copy --profile <from> --to <to>`,
    );
  }
  const command = copyArguments(context, rest);
  const apps: Application[] = [];
  try {
    const open = async (profile: string): Promise<MemoryStore> => {
      const app = await context.boot(profile, { log: () => {} });
      apps.push(app);
      await app.kernel.openStores();
      try {
        return app.kernel.store(MEMORY_STORE);
      } catch {
        throw context.usageError(
          `${app.manifest.path}: persistent memory is not enabled there ([memory] enabled = true)`,
        );
      }
    };
    const from = await open(command.profile);
    const into = await open(command.to);
    if (!from.exportSnapshot || !into.importSnapshot) {
      throw context.usageError(
        `memory copies from a ${from.backend} store into a fleet store; ${from.backend} → ${into.backend} is not supported`,
      );
    }
    const snapshot = await from.exportSnapshot();
    let bar: Progress | undefined;
    let copied;
    try {
      copied = await into.importSnapshot(snapshot, (done, total) => {
        bar ??= terminalProgress(process.stderr, 'copying memory', total);
        bar.update(done);
      });
    } finally {
      bar?.stop();
    }
    const [source, target] = await Promise.all([from.info(), into.info()]);
    context.stdout.write(
      `copied ${copied.entities} entities, ${copied.aliases} aliases and ${copied.memories} memories from ${source.location} into ${target.location}\n`,
    );
    return 0;
  } catch (error) {
    // Arguments were fine: what fails now (a profile, a store) is said without the usage text.
    context.stderr.write(failureText(error));
    return 1;
  } finally {
    for (const app of apps) await app.kernel.closeStores();
  }
}
