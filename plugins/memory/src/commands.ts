import type { CommandDefinition } from '@mira/core';
import type { MemoryCommandContext } from './commands-kit.js';
import { entityMemoryCommands } from './commands-memories.js';
import { placeCommands } from './commands-places.js';
import { proposalCommands } from './commands-proposals.js';

export { CONSOLE_SOURCE_KIND, formatMemoryLine, type MemoryCommandContext } from './commands-kit.js';

/** The persistent-memory console commands, exactly as the specification names them. */
export function memoryCommands(ctx: MemoryCommandContext): CommandDefinition[] {
  return [...entityMemoryCommands(ctx), ...placeCommands(ctx), ...proposalCommands(ctx)];
}
