import {
  assertHandWrittenSource,
  formatEntity,
  MemoryErrorCodes,
  MiraError,
  parseEntityRef,
  parseMemoryRef,
  type CommandDefinition,
  type ConsoleOutput,
  type Entity,
  type Memory,
  type MemoryStore,
} from '@mira/core';

/** Where the commands find the store; `undefined` when persistent memory is disabled. */
export interface MemoryCommandContext {
  readonly enabled: boolean;
  readonly databasePath: string | undefined;
  store(): MemoryStore;
}

/** The `source_kind` of memories written from the console. */
export const CONSOLE_SOURCE_KIND = 'console';

const quote = (text: string) => JSON.stringify(text);

/** `MEM3 fact "Ada wrote the first program" [ENT1 subject]` */
export function formatMemoryLine(memory: Memory): string {
  const links = memory.links.map((l) => `${l.entityRef} ${l.role}`).join(', ');
  const slot = memory.predicate ? ` ${memory.predicate}=${memory.value === null ? '∅' : quote(memory.value)}` : '';
  return `${memory.ref} ${memory.kind} ${quote(memory.summary)}${slot}${links ? ` [${links}]` : ''}`;
}

function parseLink(text: string): { entityId: number; role: string } {
  const at = text.lastIndexOf(':');
  if (at <= 0 || at === text.length - 1) {
    throw new MiraError(
      MemoryErrorCodes.LINK_INVALID,
      `--link ${quote(text)} must be ENT<n>:<role>, e.g. --link ENT1:subject`,
    );
  }
  return { entityId: parseEntityRef(text.slice(0, at)), role: text.slice(at + 1) };
}

function parseConfidence(text: string): number {
  const value = /^\s*(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new MiraError(
      MemoryErrorCodes.CONFIDENCE_RANGE,
      `--confidence ${quote(text)} must be a number from 0.0 to 1.0`,
    );
  }
  return value;
}

function single(options: ReadonlyMap<string, readonly string[]>, name: string): string | undefined {
  return options.get(name)?.[0];
}

async function printEntityWithMemories(store: MemoryStore, entity: Entity, out: ConsoleOutput): Promise<void> {
  out.print(formatEntity(entity));
  const { memories } = await store.listActiveMemories(entity.id);
  if (memories.length === 0) out.print('  (no active memories)');
  for (const memory of memories) out.print(`  ${formatMemoryLine(memory)}`);
}

/** The persistent-memory console commands, exactly as the specification names them. */
export function memoryCommands(ctx: MemoryCommandContext): CommandDefinition[] {
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
        out.print(`schema version: ${info.schemaVersion}`);
        out.print(
          `entities: ${info.entities}, aliases: ${info.aliases}, memories: ${info.memories} (${info.activeMemories} active), links: ${info.links}, payloads: ${info.payloads}`,
        );
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
        for (const entity of found) await printEntityWithMemories(store, entity, out);
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
        if (!memory) throw new MiraError(MemoryErrorCodes.MEMORY_NOT_FOUND, `there is no memory MEM${id}`);
        out.print(`${memory.ref} ${memory.kind}`);
        out.print(`  summary: ${memory.summary}`);
        out.print(`  predicate: ${memory.predicate ?? '(none)'}`);
        out.print(`  value: ${memory.value ?? '(none)'}`);
        out.print(
          `  source: ${memory.source.kind}${memory.source.label === null ? '' : ` (${quote(memory.source.label)})`}`,
        );
        out.print(`  confidence: ${memory.confidence ?? '(none)'}`);
        out.print(`  status: ${memory.status}`);
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
        if (!entity)
          throw new MiraError(
            MemoryErrorCodes.ENTITY_NOT_FOUND,
            `there is no entity ENT${id}; find one with "memory entity find"`,
          );
        await printEntityWithMemories(store, entity, out);
      },
    },
  ];
}
