import type { Entity, Memory, Proposal } from '@mira/memory-contract';
import { noteAge, type Note } from '@mira/plugin-notes';

/** A note as the API answers it (`NoteJson` in wire.ts), its age in words as of `now`. */
export function noteJson(note: Note, now: Date) {
  return {
    id: note.id,
    scope: note.scope,
    content: note.content,
    labels: note.labels,
    private_key: note.privateKey,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    age: noteAge(note.createdAt, now),
  };
}

/** An entity as the API answers it. */
export function entityJson(entity: Entity) {
  return {
    id: entity.ref,
    entity_type: entity.entityType,
    canonical_name: entity.canonicalName,
    aliases: entity.aliases.map((a) => a.alias),
    created_at: entity.createdAt,
  };
}

/** A proposal as the API answers it, with the memory a supersede would replace. */
export function proposalJson(p: Proposal, replaces?: Memory) {
  return {
    id: p.ref,
    kind: p.kind,
    status: p.status,
    entity_type: p.entityType,
    name: p.name,
    memory_id: p.memoryId === null ? null : `MEM${p.memoryId}`,
    value: p.value,
    ...(replaces ? { replaces: memoryJson(replaces) } : {}),
    evidence: p.evidence,
    utterance: p.utterance,
    created_at: p.createdAt,
    expires_at: p.expiresAt,
    decided_at: p.decidedAt,
    reason: p.reason,
    result: p.result,
  };
}

/** A memory as the API answers it. */
export function memoryJson(memory: Memory) {
  return {
    id: memory.ref,
    kind: memory.kind,
    summary: memory.summary,
    predicate: memory.predicate,
    value: memory.value,
    source_kind: memory.source.kind,
    source_label: memory.source.label,
    confidence: memory.confidence,
    status: memory.status,
    created_at: memory.createdAt,
    superseded_by: memory.supersededBy === null ? null : `MEM${memory.supersededBy}`,
    supersedes: memory.supersedes === null ? null : `MEM${memory.supersedes}`,
    links: memory.links.map((l) => ({ entity: l.entityRef, name: l.entityName, role: l.role })),
    payloads: memory.payloads.map((p) => ({ media_type: p.mediaType, byte_size: p.byteSize, kind: p.payloadKind })),
    // A snapshot's image, served by GET /api/memories/MEM<n>/image (the page fetches it with the token).
    image: memory.payloads.some((p) => p.payloadKind === 'object_ref'),
  };
}
