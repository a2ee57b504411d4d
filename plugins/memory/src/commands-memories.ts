/** The `memory …` commands of entities and memories: the store's state, adding, finding, showing, history. */
import { type CommandDefinition, type ConsoleOutput } from '@mira/core';
import {
  assertHandWrittenSource,
  formatEntity,
  MemoryErrors,
  entityRef,
  parseEntityRef,
  parseMemoryRef,
  memoryRef,
  type Entity,
  type Memory,
  type MemoryStore,
} from '@mira/memory-contract';
import { readableFileWarnings } from '@mira/sqlite';
import {
  formatBytes,
  formatMemoryLine,
  quote,
  single,
  CONSOLE_SOURCE_KIND,
  type MemoryCommandContext,
} from './commands-kit.js';

function parseLink(text: string): { entityId: number; role: string } {
  const at = text.lastIndexOf(':');
  if (at <= 0 || at === text.length - 1) {
    throw MemoryErrors.error('LINK_INVALID', { text: quote(text) });
  }
  return { entityId: parseEntityRef(text.slice(0, at)), role: text.slice(at + 1) };
}

function parseConfidence(text: string): number {
  const value = /^\s*(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw MemoryErrors.error('CONFIDENCE_RANGE.flag', { text: quote(text) });
  }
  return value;
}

/** Each entity with its active memories (read in one go: one round trip on a networked store). */
async function printEntitiesWithMemories(
  store: MemoryStore,
  entities: readonly Entity[],
  out: ConsoleOutput,
): Promise<void> {
  const active = await store.listActiveMemoriesOf(entities.map((e) => e.id));
  for (const [i, entity] of entities.entries()) {
    out.print(formatEntity(entity));
    const { memories } = active[i]!;
    if (memories.length === 0) out.print('  (no active memories)');
    for (const memory of memories) out.print(`  ${formatMemoryLine(memory)}`);
  }
}

/** The status line under a memory in its history. */
function historyStatus(memory: Memory): string {
  const status =
    memory.status === 'superseded'
      ? `superseded by ${memoryRef(memory.supersededBy!)} at ${memory.supersededAt}`
      : memory.status === 'active'
        ? 'current'
        : memory.status;
  const supersedes = memory.supersedes === null ? '' : `; supersedes ${memoryRef(memory.supersedes)}`;
  return `  ${status}; created ${memory.createdAt} from ${memory.source.kind}${supersedes}`;
}

/**
 * The chain a memory belongs to, oldest first: back through what it superseded, on through what replaced
 * it. A supersession keeps the subject's slot, so the chain is among `known` (the subject's history)
 * unless the store changed meanwhile; only what is not there is read.
 */
async function chainOf(store: MemoryStore, memory: Memory, known: ReadonlyMap<number, Memory>): Promise<Memory[]> {
  const read = async (id: number) => known.get(id) ?? (await store.getMemory(id));
  const chain = [memory];
  for (let m = memory; m.supersedes !== null;) {
    const previous = await read(m.supersedes);
    if (!previous) break;
    chain.unshift(previous);
    m = previous;
  }
  for (let m = memory; m.supersededBy !== null;) {
    const next = await read(m.supersededBy);
    if (!next) break;
    chain.push(next);
    m = next;
  }
  return chain;
}

function printChain(chain: readonly Memory[], out: ConsoleOutput, indent = ''): void {
  for (const memory of chain) {
    out.print(`${indent}${formatMemoryLine(memory)}`);
    out.print(`${indent}${historyStatus(memory)}`);
  }
}

/** Entities and their memories: the store, adding, finding, showing, listing and history. */
export function entityMemoryCommands(ctx: MemoryCommandContext): CommandDefinition[] {
  return [
    {
      name: 'memory persistent',
      summary: 'Show whether persistent memory is enabled, where it lives, its schema version and sizes',
      run: async (_input, out) => {
        if (!ctx.enabled) {
          out.print(
            'persistent memory: disabled in this profile (set [memory] enabled = true and database_path to enable it)',
          );
          return;
        }
        const info = await ctx.store().info();
        out.print(`persistent memory: enabled (${info.backend})`);
        out.print(`database: ${info.location}`);
        if (ctx.createdNow?.()) out.print('created: now, by this start (a new, empty store)');
        if (info.backend === 'sqlite') for (const warning of readableFileWarnings(info.location)) out.print(warning);
        out.print(`schema version: ${info.schemaVersion}`);
        out.print(
          `entities: ${info.entities}, aliases: ${info.aliases}, memories: ${info.memories} (${info.activeMemories} active), links: ${info.links}, payloads: ${info.payloads}`,
        );
        const objects = await ctx.store().objectUsage();
        out.print(`objects: ${objects.objects}, ${formatBytes(objects.bytes)}`);
      },
    },
    {
      name: 'memory entity add',
      summary: 'Create an entity (supervised entity administration)',
      usage: '<entity_type> "<canonical name>"',
      args: { min: 2, max: 2 },
      run: async (input, out) => {
        const store = ctx.store();
        const entity = await store.createEntity({ entityType: input.args[0]!, canonicalName: input.args[1]! });
        const others = (await store.findEntities(entity.canonicalName)).filter((e) => e.id !== entity.id);
        out.print(formatEntity(entity));
        if (others.length > 0)
          out.print(
            `note: the name also names ${others.map((e) => e.ref).join(', ')}; lookups by it are now ambiguous`,
          );
      },
    },
    {
      name: 'memory entity find',
      summary: 'Find entities by exact canonical name or alias (no fuzzy matching)',
      usage: '"<name>"',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const found = await ctx.store().findEntities(input.args[0]!);
        if (found.length === 0) out.print(`no entity is named ${quote(input.args[0]!)} (exact name or alias)`);
        for (const entity of found) out.print(formatEntity(entity));
      },
    },
    {
      name: 'memory alias add',
      summary: 'Give an entity another exact name',
      usage: 'ENT<n> "<alias>"',
      args: { min: 2, max: 2 },
      run: async (input, out) => {
        const entityId = parseEntityRef(input.args[0]!);
        const added = await ctx.store().addAlias(entityId, input.args[1]!);
        out.print(`${added.entity.ref} alias ${quote(added.alias.alias)} added`);
        if (added.alsoNames.length > 0) {
          out.print(
            `note: ${quote(added.alias.alias)} also names ${added.alsoNames.map((e) => `${e.ref} ${quote(e.canonicalName)}`).join(', ')}`,
          );
        }
      },
    },
    {
      name: 'memory find',
      summary: 'Show every entity with this exact name or alias and its active memories',
      usage: '"<name>"',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const store = ctx.store();
        const found = await store.findEntities(input.args[0]!);
        if (found.length === 0) out.print(`no entity is named ${quote(input.args[0]!)} (exact name or alias)`);
        await printEntitiesWithMemories(store, found, out);
      },
    },
    {
      name: 'memory add',
      summary: 'Write a memory with one inline text/plain payload holding its summary',
      usage: '<kind> "<summary>"',
      args: { min: 2, max: 2 },
      options: {
        link: {
          takesValue: true,
          repeatable: true,
          valueName: 'ENT<n>:<role>',
          description: 'link an entity under a role',
        },
        predicate: { takesValue: true, valueName: '<token>', description: 'structured predicate' },
        value: { takesValue: true, valueName: '"<text>"', description: 'structured value (needs --predicate)' },
        'source-kind': {
          takesValue: true,
          valueName: '<token>',
          description: `provenance kind (default ${CONSOLE_SOURCE_KIND})`,
        },
        'source-label': { takesValue: true, valueName: '"<text>"', description: 'provenance label' },
        confidence: { takesValue: true, valueName: '<0.0..1.0>', description: 'optional confidence' },
      },
      run: async (input, out) => {
        const store = ctx.store();
        const confidence = single(input.options, 'confidence');
        const sourceKind = single(input.options, 'source-kind') ?? CONSOLE_SOURCE_KIND;
        assertHandWrittenSource(sourceKind);
        const memory = await store.createMemory({
          kind: input.args[0]!,
          summary: input.args[1]!,
          links: (input.options.get('link') ?? []).map(parseLink),
          predicate: single(input.options, 'predicate') ?? null,
          value: single(input.options, 'value') ?? null,
          sourceKind,
          sourceLabel: single(input.options, 'source-label') ?? null,
          confidence: confidence === undefined ? null : parseConfidence(confidence),
        });
        out.print(formatMemoryLine(memory));
      },
    },
    {
      name: 'memory show',
      summary: 'Show everything about one memory',
      usage: 'MEM<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const id = parseMemoryRef(input.args[0]!);
        const memory = await ctx.store().getMemory(id);
        if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: memoryRef(id) });
        out.print(`${memory.ref} ${memory.kind}`);
        out.print(`  summary: ${memory.summary}`);
        out.print(`  predicate: ${memory.predicate ?? '(none)'}`);
        out.print(`  value: ${memory.value ?? '(none)'}`);
        out.print(
          `  source: ${memory.source.kind}${memory.source.label === null ? '' : ` (${quote(memory.source.label)})`}`,
        );
        out.print(`  confidence: ${memory.confidence ?? '(none)'}`);
        out.print(`  status: ${memory.status}`);
        if (memory.supersededBy !== null)
          out.print(`  superseded by: ${memoryRef(memory.supersededBy)} at ${memory.supersededAt}`);
        if (memory.supersedes !== null) out.print(`  supersedes: ${memoryRef(memory.supersedes)}`);
        out.print(`  created: ${memory.createdAt}`);
        if (memory.links.length === 0) out.print('  links: (none)');
        for (const link of memory.links)
          out.print(`  link: ${link.entityRef} ${quote(link.entityName)} as ${link.role}`);
        for (const payload of memory.payloads) {
          const where =
            payload.payloadKind === 'inline_text' ? 'inline' : `object ${payload.objectRef} sha256 ${payload.sha256}`;
          out.print(`  payload: ${payload.mediaType}, ${payload.byteSize} bytes (${where})`);
        }
      },
    },
    {
      name: 'memory list',
      summary: "List an entity's active memories",
      usage: 'ENT<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const store = ctx.store();
        const id = parseEntityRef(input.args[0]!);
        const entity = await store.getEntity(id);
        if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: entityRef(id) });
        await printEntitiesWithMemories(store, [entity], out);
      },
    },
    {
      name: 'memory history',
      summary: 'Show the chain of superseded and current memories of a memory (MEM<n>) or of an entity (ENT<n>)',
      usage: 'MEM<n> | ENT<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const store = ctx.store();
        const ref = input.args[0]!;
        if (/^\s*ent/i.test(ref)) {
          const id = parseEntityRef(ref);
          const entity = await store.getEntity(id);
          if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: entityRef(id) });
          out.print(formatEntity(entity));
          const memories = await store.listMemoryHistory(id);
          if (memories.length === 0) out.print('  (no memories)');
          const byId = new Map(memories.map((m) => [m.id, m]));
          // One chain per memory that replaced nothing, in ID order; its successors follow it.
          for (const root of memories.filter((m) => m.supersedes === null || !byId.has(m.supersedes))) {
            printChain(await chainOf(store, root, byId), out, '  ');
          }
          return;
        }
        const id = parseMemoryRef(ref);
        const memory = await store.getMemory(id);
        if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: memoryRef(id) });
        const subject = memory.links.find((l) => l.role === 'subject') ?? memory.links[0];
        const known =
          subject && (memory.supersedes !== null || memory.supersededBy !== null)
            ? new Map((await store.listMemoryHistory(subject.entityId)).map((m) => [m.id, m]))
            : new Map<number, Memory>();
        printChain(await chainOf(store, memory, known), out);
      },
    },
  ];
}
