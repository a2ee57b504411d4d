/**
 * `@mira/plugin-memory-tools`: the bounded cognition capabilities over
 * persistent memory — `recall_memory` (read-only acquisition), `remember`
 * (operator-grounded durable effect), and `propose_entity` / `propose_supersede` (proposals the
 * operator accepts or rejects).
 *
 * @packageDocumentation
 */
import { definePlugin, type MiraPlugin } from '@mira/core';
import { MEMORY_STORE } from '@mira/memory-contract';
import { recallMemoryTool } from './recall.js';
import { getSnapshotTool } from './snapshot.js';
import { takeSnapshotTool } from './take-snapshot.js';
import { rememberTool } from './remember.js';
import { proposeEntityTool, proposeSupersedeTool } from './propose.js';

export { MAX_CONFLICT_IDS, OPERATOR_STATEMENT, SELF_REFERENCES, admit, rememberTool } from './remember.js';
export { MAX_EVIDENCE_LENGTH, MAX_FIELD_LENGTH } from './proposal-fields.js';
export { REMEMBER_REASONS, toToolResult, type RememberReason, type RememberResult } from './remember-reasons.js';
export { REMEMBER_PARAMETERS, type RememberProposal } from './remember-schema.js';
export {
  ASSERTION_RULES,
  ENGLISH,
  NOT_ASSERTED_WHY,
  assertionRulesFor,
  clearRuleCaches,
  notAsserted,
  notAssertedWhy,
  type AssertionRules,
  type NotAsserted,
} from './assertion.js';
export { withoutNames } from './name-blanking.js';
export { CHINESE, DUTCH, FRENCH, GERMAN, ITALIAN, JAPANESE, KOREAN, PORTUGUESE, SPANISH } from './assertion-rules.js';
export {
  ARABIC,
  HEBREW,
  HINDI,
  INDONESIAN,
  POLISH,
  RUSSIAN,
  SWEDISH,
  THAI,
  TURKISH,
  UKRAINIAN,
  VIETNAMESE,
} from './assertion-rules-more.js';
export {
  PENDING_NOTE,
  PROPOSE_ENTITY_PARAMETERS,
  PROPOSE_REASONS,
  PROPOSE_SUPERSEDE_PARAMETERS,
  proposeEntity,
  proposeEntityTool,
  proposeSupersede,
  proposeSupersedeTool,
  toProposeResult,
  type EntityProposalArgs,
  type ProposeReason,
  type ProposeResult,
  type SupersedeProposalArgs,
} from './propose.js';
export {
  clearMatchFormCache,
  findWholeSpan,
  toMatchText,
  wholeSpans,
  type MatchText,
  type SpanOptions,
} from './span-match.js';
export {
  CHINESE_CLAUSES,
  CLAUSE_RULES,
  DUTCH_CLAUSES,
  ENGLISH_CLAUSES,
  FRENCH_CLAUSES,
  GERMAN_CLAUSES,
  ITALIAN_CLAUSES,
  JAPANESE_CLAUSES,
  KOREAN_CLAUSES,
  PORTUGUESE_CLAUSES,
  SPANISH_CLAUSES,
  UNREAD_LANGUAGE_WORDS,
  ARABIC_CLAUSES,
  HEBREW_CLAUSES,
  HINDI_CLAUSES,
  INDONESIAN_CLAUSES,
  POLISH_CLAUSES,
  RUSSIAN_CLAUSES,
  SWEDISH_CLAUSES,
  THAI_CLAUSES,
  TURKISH_CLAUSES,
  UKRAINIAN_CLAUSES,
  VIETNAMESE_CLAUSES,
  attribute,
  crossesClause,
  oneSentence,
  type AttributionRefusal,
  type ClauseRules,
} from './attribution.js';
export { clauseRulesFor, languageOf, likelyLanguages, scriptLanguage, unreadLanguageOf } from './language-reading.js';
export { loadLanguageIdentifier } from './language-identifier.js';
export {
  MAX_MEMORIES_PER_ENTITY,
  MAX_QUERY_LENGTH,
  MAX_RECALL_CHARS,
  MAX_RECALL_ENTITIES,
  recallMemoryTool,
  renderRecall,
} from './recall.js';

export { MAX_SNAPSHOT_RESULT_BYTES, getSnapshotTool } from './snapshot.js';
export { takeSnapshotTool } from './take-snapshot.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-memory-tools';

const plugin: MiraPlugin = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  dependencies: ['@mira/plugin-memory'],
  setup(kernel) {
    if (!kernel.stores.has(MEMORY_STORE)) {
      kernel.log.warn(
        'persistent memory is disabled in this profile, so recall_memory and remember are not offered to cognition',
      );
      return;
    }
    const store = () => kernel.stores.get(MEMORY_STORE);
    const log = (message: string) => kernel.log.error(message);
    kernel.tools.register(recallMemoryTool(store, log));
    kernel.tools.register(rememberTool(store, kernel.profile, log));
    kernel.tools.register(proposeEntityTool(store, log));
    kernel.tools.register(proposeSupersedeTool(store, kernel.profile, log));
    // Only when the profile has a camera (known once every plugin is set up, whatever their order): a tool
    // the robot could never use is not offered.
    kernel.hooks.ready.tap(PLUGIN_NAME, () => {
      if (kernel.sensors.list().some((s) => s.kind === 'image'))
        kernel.tools.register(takeSnapshotTool(store, kernel.sensors, () => kernel.clock.monotonic(), log));
    });
    // For other agents only (mira mcp): the robot's model never receives an image.
    kernel.tools.registerForAgents(getSnapshotTool(store, log));
  },
});

export default plugin;
