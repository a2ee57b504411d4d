/**
 * Error codes of the persistent-memory contract. Every `MemoryStore`
 * implementation raises these, so callers never depend on a backend.
 */
export const MemoryErrorCodes = {
  DISABLED: 'MIRA_ERR_MEMORY_DISABLED',
  INVALID_ID: 'MIRA_ERR_MEMORY_INVALID_ID',
  ENTITY_NOT_FOUND: 'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND',
  MEMORY_NOT_FOUND: 'MIRA_ERR_MEMORY_NOT_FOUND',
  ALIAS_EXISTS: 'MIRA_ERR_MEMORY_ALIAS_EXISTS',
  CONFIDENCE_RANGE: 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE',
  LINK_INVALID: 'MIRA_ERR_MEMORY_LINK_INVALID',
  VALUE_WITHOUT_PREDICATE: 'MIRA_ERR_MEMORY_VALUE_WITHOUT_PREDICATE',
  /** The backend failed (I/O, lock timeout, constraint); the write was rolled back. */
  BACKEND: 'MIRA_ERR_MEMORY_BACKEND',
  /** The store is closed. */
  CLOSED: 'MIRA_ERR_MEMORY_CLOSED',
} as const;

/** Every error code of the persistent-memory contract. */
export type MemoryErrorCode = (typeof MemoryErrorCodes)[keyof typeof MemoryErrorCodes];
