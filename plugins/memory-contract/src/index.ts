/**
 * `@mira/memory-contract`: the vocabulary of the persistent memory that the memory plugins share — the
 * `MemoryStore` contract and its key, its errors, IDs, validation, proposals, places, snapshots and
 * objects. A library, not a plugin: it builds on `@mira/core` and core imports none of it.
 *
 * @packageDocumentation
 */
export { formatEntity } from './format.js';
export { MEMORY_STORE } from './key.js';
export {
  DEFAULT_POSE_FRAME,
  PLACE_ENTITY_TYPE,
  POSE_PREDICATE,
  POSE_SOURCE_KIND,
  describePose,
  isOperatorPose,
  newestOperatorPose,
  parsePose,
  poseMemory,
  poseOfValue,
  poseValue,
  resolvePlace,
  type PlaceRefusal,
  type Pose,
  type ResolvedPlace,
} from './places.js';
export {
  cameraSensor,
  freshPose,
  poseOfReading,
  takeSnapshot,
  type Snapshot,
  type SnapshotSensors,
} from './snapshots.js';
export { MemoryErrorCodes, MemoryErrors, type MemoryErrorCode } from './errors.js';
export {
  DEFAULT_MAX_OBJECT_BYTES,
  DEFAULT_OBJECT_GRACE_MS,
  OBJECT_MEDIA_TYPES,
  SHA256_HEX,
  objectRef,
  prepareObject,
  sha256Hex,
  sniffMediaType,
  verifiedObject,
  type PreparedObject,
} from './objects.js';
export {
  entityRef,
  memoryRef,
  proposalRef,
  parseEntityRef,
  parseMemoryRef,
  parseProposalRef,
  type EntityRef,
  type MemoryRef,
  type ProposalRef,
} from './ids.js';
export { DEFAULT_PROPOSAL_TTL_MS, MAX_UTTERANCE_LENGTH, slotOf, supersedableSlot, whyStale } from './proposals.js';
export type {
  AcceptedProposal,
  Alias,
  AliasAdded,
  Entity,
  Memory,
  MemoryLink,
  MemorySlot,
  MemorySource,
  MemoryStatus,
  MemoryStore,
  MemorySnapshot,
  NamedSlot,
  NewMemory,
  NewObject,
  NewProposal,
  NewestMemories,
  ObjectUsage,
  Payload,
  PayloadInfo,
  Proposal,
  ProposalKind,
  ProposalRow,
  ProposalStatus,
  Recalled,
  SlotDecision,
  SlotMemory,
  SlotRead,
  SlotOutcome,
  StoreInfo,
  StoredObject,
} from './types.js';
export {
  MAX_NAME_LENGTH,
  MAX_SUMMARY_LENGTH,
  MAX_VALUE_LENGTH,
  prepareMemory,
  prepareName,
  prepareNewName,
  PRONOUNS,
  OPERATOR_STATEMENT_SOURCE,
  SENSOR_OBSERVATION_SOURCE,
  RUNTIME_SOURCE_KINDS,
  assertHandWrittenSource,
  type PreparedMemory,
} from './validate.js';
