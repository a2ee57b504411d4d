import { parseArgs } from 'node:util';
import type { Application, CliCommandContext } from '@mira/core';
import { EarlyAnswers } from './early-answers.js';
import { mcpTools, toolListResult } from './tools.js';

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
 * MCP on stdio. Everything but protocol messages goes to stderr. The profile boots from the start; the
 * client's first requests (`initialize` at once, `tools/list` once booted) are answered before the MCP
 * SDK loads ({@link EarlyAnswers}), and the SDK's server takes over once the boot has settled, or sooner
 * when a request only it answers comes. Requests for tools wait for the boot; a boot that fails answers
 * them with its error and ends the server.
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
  const early = new EarlyAnswers({
    stdin: process.stdin,
    stdout: process.stdout,
    version: context.version,
    toolList: booting.then((app) => toolListResult(mcpTools(app))),
  });
  try {
    await Promise.race([early.toolListAnswered, early.serverNeeded]);
    if (
      !early.needsServer &&
      (early.clientLeft ||
        (await booting.then(
          () => false,
          () => true,
        )))
    ) {
      // Nothing left for the SDK's server: the client has gone, or the boot failed and its error answered
      // every request for tools. The exit status says how the boot went.
      await booting;
      return 0;
    }
    const { serveMcp } = await import('./server.js');
    const ended = await serveMcp(booting, context.version, { stdin: early.handOver(), stdout: process.stdout });
    if (ended.refused === undefined) return 0;
    context.stderr.write(`mira mcp: ${ended.refused}\n`);
    return 1;
  } finally {
    const app = await booting.catch(() => undefined);
    await app?.kernel.closeStores();
  }
}
