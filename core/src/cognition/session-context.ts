import type { EpisodeInfo } from '../tools.js';
import type { EpisodeOrigin } from '../types.js';
import type { WorkingMemoryEntry } from '../working-memory.js';
import { TOOL_FORMS, TOOL_FORM_RULES, toolsInForm } from './compact-tools.js';
import { ContextBudget, dropHistoryBlock, dropOldGrounding, shortenOldestResult } from './context-budget.js';
import type { ChatMessage, ToolSpec } from './provider.js';

/**
 * The fewest tokens a session lowers its answers to when its context is too small for the instructions, the
 * tools and a whole answer: room for a tool call's arguments or a few sentences.
 */
export const MIN_ANSWER_TOKENS = 256;

/** One call's request in the parts the context budget may trim. */
export interface Prompt {
  readonly system: ChatMessage;
  /** The tools as sent: a compact form after a refusal the rest of the request could not make up for. */
  tools: readonly ToolSpec[];
  /** Working memory's entries, oldest first; those before `start` are not sent. */
  readonly entries: readonly WorkingMemoryEntry[];
  start: number;
  /** The episode's opening: the utterance (its robot-state block may be left out once a later one is sent). */
  opening: ChatMessage;
  /** The episode's tool calls and results; its oldest results may be shortened in place. */
  readonly exchange: ChatMessage[];
  readonly episode: EpisodeInfo;
}

/** Leaves out the oldest robot-state block of an episode but its newest (see dropOldGrounding). */
function dropOldState(parts: Prompt): boolean {
  const messages = [parts.opening, ...parts.exchange];
  if (!dropOldGrounding(messages)) return false;
  parts.opening = messages[0]!;
  parts.exchange.splice(0, parts.exchange.length, ...messages.slice(1));
  return true;
}

/** The messages a prompt sends, in order. */
export function messagesOf(parts: Prompt): ChatMessage[] {
  const history = parts.entries
    .slice(parts.start)
    .map((entry): ChatMessage => ({ role: entry.speaker === 'operator' ? 'user' : 'assistant', content: entry.text }));
  return [parts.system, ...history, parts.opening, ...parts.exchange];
}

/** What a session's context needs to know of the engine. */
export interface SessionContextInputs {
  /** The prompt tokens a request may carry (the context less the answer's limit), when known. */
  readonly promptTokens: number | undefined;
  /** The answer's token limit requests carry (`max_tokens`), when the context is known. */
  readonly answerTokens?: number | undefined;
  /** The server's tokenizer: a text's tokens, or undefined when it cannot say. */
  readonly countTokens: (text: string) => Promise<number | undefined>;
  /** The tokens the server's chat template renders for a set of tools, or undefined when it cannot say. */
  readonly countToolTokens?: (tools: readonly ToolSpec[]) => Promise<number | undefined>;
  /** The tools an origin is offered, in full, in registration order. */
  readonly offered: (origin: EpisodeOrigin) => ToolSpec[];
  /** Where what the operator should know goes (stderr). */
  readonly warn: (message: string) => void;
}

/**
 * What keeps a session's requests inside the model's context: the budget, the form the tools are sent in, and
 * where working memory's turns start. One per engine (per session); it holds no conversation of its own.
 */
export class SessionContext {
  readonly budget: ContextBudget;
  readonly #in: SessionContextInputs;
  /** Per origin, the tools as every request of the session sends them (full, or a compact form). */
  readonly #toolForms = new Map<EpisodeOrigin, Promise<ToolSpec[]>>();
  /**
   * The newest working-memory entry dropped to fit the context: older turns are never sent again, so what is
   * sent before the current episode stays the same from episode to episode (a prefix cache keeps it).
   */
  #droppedThrough: WorkingMemoryEntry | undefined;
  /** Whether the compact form of the tools was said (once a session). */
  #saidCompact = false;

  constructor(inputs: SessionContextInputs) {
    this.#in = inputs;
    this.budget = new ContextBudget(
      inputs.promptTokens,
      inputs.countTokens,
      inputs.countToolTokens,
      inputs.answerTokens,
    );
  }

  /** Where working memory's turns start: after the newest entry ever dropped to fit the context. */
  historyStart(entries: readonly WorkingMemoryEntry[]): number {
    // An entry working memory itself let go took every older one with it: then all that is left is newer.
    return this.#droppedThrough === undefined ? 0 : entries.indexOf(this.#droppedThrough) + 1;
  }

  /**
   * The tools an origin's requests carry, decided once per session: the full form, or the first compact form
   * (see {@link ToolForm}) whose instructions and tools leave a quarter of the context's prompt tokens for the
   * conversation. A compact form is said once on stderr, with what to do for the full one.
   */
  toolsFor(origin: EpisodeOrigin, system: ChatMessage): Promise<ToolSpec[]> {
    let found = this.#toolForms.get(origin);
    if (found) return found;
    found = this.#decide(this.#in.offered(origin), system);
    this.#toolForms.set(origin, found);
    return found;
  }

  async #decide(full: ToolSpec[], system: ChatMessage): Promise<ToolSpec[]> {
    const { budget } = this;
    const limit = budget.limit;
    if (limit === undefined || full.length === 0) return full;
    const room = Math.floor(limit / 4);
    const fullTokens = await budget.measure([system], full);
    if (budget.fits(fullTokens, room)) return full;
    let tools = full;
    let tokens = fullTokens;
    let form = TOOL_FORMS[0]!;
    for (form of TOOL_FORMS.slice(1)) {
      tools = toolsInForm(full, form);
      tokens = await budget.measure([system], tools);
      if (budget.fits(tokens, room)) break;
    }
    const answer = budget.fits(tokens, room) ? undefined : this.#shrinkAnswer(tokens);
    const still = budget.fits(tokens, room)
      ? ''
      : '; even so they leave less than a quarter of it for the conversation, and long exchanges will be shortened';
    const shorter =
      answer === undefined
        ? ''
        : `; and the instructions and tools leave so little of the context that answers are limited to ${answer.to} tokens (of max_tokens ${answer.from}), leaving about ${budget.limit! - tokens} for the conversation`;
    if (!this.#saidCompact) {
      this.#saidCompact = true;
      this.#in.warn(
        `cognition: a request to the model may carry ${limit} tokens (its context less [openai] max_tokens), and the instructions with the full tools take about ${fullTokens}, so the tools are sent with ${TOOL_FORM_RULES[form]} (about ${tokens} tokens)${answer === undefined ? still : shorter}. For the full descriptions, give the model a larger context (llama-server -c) or lower max_tokens`,
      );
    }
    return tools;
  }

  /**
   * When even the most compact tools leave the conversation less than a quarter of the prompt's tokens: the
   * answer gives up what it must for the conversation to have an eighth of the context, never going below
   * {@link MIN_ANSWER_TOKENS} (a context smaller than that cannot hold Mira). Returns the answer's limit before
   * and after, or undefined when it stays (unknown, or already as small).
   */
  #shrinkAnswer(tokens: number): { from: number; to: number } | undefined {
    const { budget } = this;
    const from = budget.answer;
    if (from === undefined || budget.limit === undefined) return undefined;
    const context = budget.limit + from;
    const to = Math.max(MIN_ANSWER_TOKENS, Math.min(from, context - tokens - Math.floor(context / 8)));
    return budget.shrinkAnswer(to) ? { from, to } : undefined;
  }

  /**
   * Trims `parts` in place until the request fits the budget, and returns its tokens. Never the current
   * utterance, the newest robot state or the tools. At an episode's first call, working memory's oldest turns go
   * first, in blocks (see dropHistoryBlock), leaving an eighth of the budget for the episode's own exchange; then,
   * at any call, the episode's oldest tool results are shortened with a visible marker; then the robot-state
   * blocks older than the newest (see dropOldGrounding); and only then, mid-episode, working memory's turns go
   * (what came before the episode changes mid-episode only when nothing else is left to trim).
   */
  async fit(parts: Prompt, firstCall: boolean): Promise<number> {
    const { budget } = this;
    const measure = () => budget.measure(messagesOf(parts), parts.tools);
    const drop = () => {
      parts.start = dropHistoryBlock(parts.start, parts.entries.length);
      this.#droppedThrough = parts.entries[parts.start - 1];
    };
    let tokens = await measure();
    const reserve = firstCall && budget.limit !== undefined ? Math.floor(budget.limit / 8) : 0;
    while (!budget.fits(tokens, reserve) && parts.start < parts.entries.length) {
      drop();
      tokens = await measure();
    }
    while (!budget.fits(tokens) && shortenOldestResult(parts.exchange)) tokens = await measure();
    while (!budget.fits(tokens) && dropOldState(parts)) tokens = await measure();
    while (!budget.fits(tokens) && parts.start < parts.entries.length) {
      drop();
      tokens = await measure();
    }
    return tokens;
  }

  /**
   * After the server refused `parts` (estimated at `tokens`) as too long: lowers the session's limit below it,
   * decides the tools' form again against it (the same, or a more compact one), and trims `parts` to fit.
   * Returns the trimmed request's tokens, or undefined when nothing could be trimmed (sending it again is futile).
   */
  async refused(parts: Prompt, tokens: number): Promise<number | undefined> {
    const before = [parts.start, JSON.stringify(parts.tools), parts.opening, ...parts.exchange];
    this.budget.refused(tokens);
    this.#toolForms.delete(parts.episode.origin);
    parts.tools = await this.toolsFor(parts.episode.origin, parts.system);
    const trimmed = await this.fit(parts, false);
    const after = [parts.start, JSON.stringify(parts.tools), parts.opening, ...parts.exchange];
    return after.length === before.length && after.every((part, i) => part === before[i]) ? undefined : trimmed;
  }
}
