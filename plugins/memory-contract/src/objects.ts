/**
 * Object payloads: bytes a memory keeps beside its text (a camera snapshot), addressed by their SHA-256
 * as the persistent-memory specification reserves. A store keeps each object once, however many
 * payloads refer to it, and verifies the digest on every read. The reference in a payload row is
 * opaque (`sha256:<hex>`), not a path.
 */
import { createHash } from 'node:crypto';
import { MemoryErrors } from './errors.js';
import type { NewObject } from './types.js';

/** The media types an object payload may have: images, recognised by their first bytes. */
export const OBJECT_MEDIA_TYPES = ['image/jpeg', 'image/png'] as const;

/** The default cap on one object's size (`[memory] max_object_bytes`): 4 MiB, a large camera frame. */
export const DEFAULT_MAX_OBJECT_BYTES = 4 * 1024 * 1024;

/**
 * How old an object no payload refers to must be before a collection removes it: a write stores its
 * object before its rows, and another process's write may be between the two.
 */
export const DEFAULT_OBJECT_GRACE_MS = 10 * 60 * 1000;

/** An object checked and digested, ready for a store to write. */
export interface PreparedObject {
  readonly bytes: Buffer;
  readonly mediaType: (typeof OBJECT_MEDIA_TYPES)[number];
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string;
}

const SIGNATURES: ReadonlyArray<readonly [(typeof OBJECT_MEDIA_TYPES)[number], readonly number[]]> = [
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
];

/** The media type the bytes begin as, or undefined when they are none Mira keeps. */
export function sniffMediaType(bytes: Uint8Array): (typeof OBJECT_MEDIA_TYPES)[number] | undefined {
  return SIGNATURES.find(([, magic]) => magic.every((byte, i) => bytes[i] === byte))?.[0];
}

/** Lower-case hex SHA-256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The opaque reference a payload row keeps for an object. */
export function objectRef(sha256: string): string {
  return `sha256:${sha256}`;
}

/** A hex SHA-256: what an object's name in a store is made of. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Checks an object before anything is written: not empty, at most `maxBytes`, and bytes that are what
 * its media type says (a PNG called image/jpeg is refused, not relabelled).
 * @throws MiraError MIRA_ERR_MEMORY_OBJECT_INVALID
 */
export function prepareObject(object: NewObject, maxBytes: number): PreparedObject {
  const bytes = Buffer.from(object.bytes.buffer, object.bytes.byteOffset, object.bytes.byteLength);
  if (bytes.length === 0) throw MemoryErrors.error('OBJECT_INVALID.empty');
  if (bytes.length > maxBytes) throw MemoryErrors.error('OBJECT_INVALID.tooLarge', { bytes: bytes.length, maxBytes });
  const declared = object.mediaType;
  if (!(OBJECT_MEDIA_TYPES as readonly string[]).includes(declared))
    throw MemoryErrors.error('OBJECT_INVALID.mediaType', { declared, kept: OBJECT_MEDIA_TYPES.join(', ') });
  const sniffed = sniffMediaType(bytes);
  if (sniffed !== declared)
    throw MemoryErrors.error('OBJECT_INVALID.notWhatItSays', { sniffed: sniffed ?? 'no image Mira reads', declared });
  return { bytes, mediaType: sniffed!, sha256: sha256Hex(bytes) };
}

/**
 * `bytes` when their SHA-256 is `sha256`.
 * @throws MiraError MIRA_ERR_MEMORY_OBJECT_CORRUPT naming the object and where it lies
 */
export function verifiedObject(bytes: Buffer, sha256: string, where: string): Buffer {
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw MemoryErrors.error('OBJECT_CORRUPT', { sha256, where, actual: actual.slice(0, 12) });
  return bytes;
}
