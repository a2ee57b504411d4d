import { defineTool, isMiraError, rejectedResult, type ToolResult } from '@mira/core';
import { MemoryErrorCodes, parseMemoryRef, type MemoryStore } from '@mira/memory-contract';
import { describeFailure, type FailureLog } from './recall.js';

/** The largest image `get_snapshot` returns (base64 makes it a third larger on the wire). */
export const MAX_SNAPSHOT_RESULT_BYTES = 1024 * 1024;

/**
 * `get_snapshot` for other agents (`mira mcp`, never the robot's model): the image an observation memory
 * keeps, its SHA-256 verified, as image content beside a JSON description. Read-only; bounded in size.
 */
export function getSnapshotTool(getStore: () => MemoryStore, log: FailureLog) {
  return defineTool({
    name: 'get_snapshot',
    description: 'Get the image a snapshot memory keeps.',
    agentDescription:
      "Get the image one of the robot's snapshot memories keeps (what its camera saw, kept by the operator with " +
      '"memory snapshot"), by its MEM<n> ID from recall_memory: the image itself, with when and where it was ' +
      `taken and what it is of. Read-only; images over ${MAX_SNAPSHOT_RESULT_BYTES / 1024 / 1024} MiB are refused.`,
    kind: 'acquisition',
    origins: ['operator'],
    parameters: {
      type: 'object',
      properties: {
        memory_id: {
          type: 'string',
          pattern: '^MEM[1-9][0-9]{0,15}$',
          description: 'The snapshot memory, e.g. MEM12.',
        },
      },
      required: ['memory_id'],
      additionalProperties: false,
    },
    async run({ memory_id }): Promise<ToolResult> {
      const id = parseMemoryRef(memory_id);
      try {
        const store = getStore();
        const memory = await store.getMemory(id);
        if (!memory) return rejectedResult('memory_not_found', `there is no memory ${memory_id}`);
        const payload = memory.payloads.find((p) => p.payloadKind === 'object_ref');
        if (!payload) return rejectedResult('no_image', `${memory_id} keeps no image; it is a ${memory.kind}`);
        if (payload.byteSize > MAX_SNAPSHOT_RESULT_BYTES)
          return rejectedResult(
            'image_too_large',
            `${memory_id}'s image is ${payload.byteSize} bytes, over the ${MAX_SNAPSHOT_RESULT_BYTES} this tool returns; save it on the robot with memory snapshot save`,
          );
        const object = (await store.readObject(id))!;
        const about = {
          status: 'ok',
          memory_id,
          summary: memory.summary,
          of: memory.links.map((l) => ({ entity_id: l.entityRef, name: l.entityName, role: l.role })),
          source: memory.source,
          recorded_at: memory.createdAt,
          media_type: object.mediaType,
          byte_size: object.bytes.length,
          sha256: object.sha256,
        };
        return {
          content: JSON.stringify(about),
          display: `${memory_id} ${object.mediaType} ${object.bytes.length} bytes`,
          image: { mediaType: object.mediaType, bytes: object.bytes },
        };
      } catch (error) {
        if (isMiraError(error, MemoryErrorCodes.OBJECT_CORRUPT) || isMiraError(error, MemoryErrorCodes.OBJECT_MISSING))
          return rejectedResult(
            'image_unreadable',
            `${memory_id}'s image cannot be returned: ${(error as Error).message}`,
          );
        log(`get_snapshot: persistent memory could not be read: ${describeFailure(error)}`);
        return rejectedResult('backend_failure', 'persistent memory could not be read; nothing was returned');
      }
    },
  });
}
