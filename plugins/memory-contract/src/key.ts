import { storeKey } from '@mira/core';
import type { MemoryStore } from './types.js';

/**
 * The key of the persistent memory store, beside its contract: the memory plugin registers its store
 * (SQLite or PostgreSQL) under it, and every other plugin looks it up by it as a {@link MemoryStore}.
 */
export const MEMORY_STORE = storeKey<MemoryStore>('memory');
