import { MemoryErrors } from './errors.js';

/** `ENT<n>`: how an entity's integer key is shown. */
export type EntityRef = `ENT${number}`;
/** `MEM<n>`: how a memory's integer key is shown. */
export type MemoryRef = `MEM${number}`;

/** `P<n>`: how a proposal's integer key is shown. */
export type ProposalRef = `P${number}`;

/** Renders an entity id as `ENT<n>`. */
export const entityRef = (id: number): EntityRef => `ENT${id}`;
/** Renders a memory id as `MEM<n>`. */
export const memoryRef = (id: number): MemoryRef => `MEM${id}`;
/** Renders a proposal id as `P<n>`. */
export const proposalRef = (id: number): ProposalRef => `P${id}`;

const WHAT = { ENT: 'an entity', MEM: 'a memory', P: 'a proposal' } as const;

function parseRef(prefix: 'ENT' | 'MEM' | 'P', text: string): number {
  const match = /^(ENT|MEM|P)([1-9][0-9]{0,15})$/i.exec(text.trim());
  const id = match && match[1]!.toUpperCase() === prefix ? Number(match[2]) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw MemoryErrors.error('INVALID_ID.ref', { text, article: WHAT[prefix], prefix });
  }
  return id;
}

/** Parses `ENT<n>` (case-insensitive prefix) into its integer id. @throws MiraError MIRA_ERR_MEMORY_INVALID_ID */
export const parseEntityRef = (text: string): number => parseRef('ENT', text);
/** Parses `MEM<n>` (case-insensitive prefix) into its integer id. @throws MiraError MIRA_ERR_MEMORY_INVALID_ID */
export const parseMemoryRef = (text: string): number => parseRef('MEM', text);
/** Parses `P<n>` (case-insensitive prefix) into its integer id. @throws MiraError MIRA_ERR_MEMORY_INVALID_ID */
export const parseProposalRef = (text: string): number => parseRef('P', text);
