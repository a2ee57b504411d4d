import { parseArgs } from 'node:util';
import type { Application, CliCommandContext } from '@mira/core';
import { serveMcp } from './server.js';

/** Reads `--profile <dir|profile.toml>` (or `--profile=…`, `-p`), the only argument `mira mcp` takes. */
function profileOf(context: CliCommandContext): string {
  let profile: string | undefined;
  try {
    ({
      values: { profile },
    } = parseArgs({ args: [...context.argv], options: { profile: { type: 'string', short: 'p' } }, strict: true }));
  } catch (error) {
    throw context.usageError(`${(error as Error).message}; mira mcp takes --profile <dir|profile.toml>`);
  }
  if (!profile) {
    throw context.usageError('mira mcp needs --profile <dir|profile.toml>, e.g. mira mcp --profile profiles/mira-sim');
  }
  return profile;
}

/**
 * `mira mcp`: the profile's stores opened (its robot is not connected), its read-only tools served over
 * MCP on stdio. Everything but protocol messages goes to stderr. The MCP SDK is loaded with this module
 * and the client's handshake answered while the profile boots (its answer needs nothing from the
 * profile): requests for tools wait for the boot, and a boot that fails ends the server.
 */
export async function run(context: CliCommandContext): Promise<number> {
  const profile = profileOf(context);
  const booting = (async (): Promise<Application> => {
    const app = await context.boot(profile, { readOnly: true });
    try {
      await app.kernel.openStores();
    } catch (error) {
      // Reported, not lost: the boot's own error is the one thrown.
      await app.kernel.closeStores().catch((closeError: unknown) => {
        context.stderr.write(`mira mcp: the stores did not close: ${(closeError as Error).message}\n`);
      });
      throw error;
    }
    return app;
  })();
  booting.catch(() => undefined);
  try {
    await serveMcp(booting, context.version);
    return 0;
  } finally {
    const app = await booting.catch(() => undefined);
    await app?.kernel.closeStores();
  }
}
