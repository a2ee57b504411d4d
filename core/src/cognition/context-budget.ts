import { GROUNDING_HEADER } from './prompt.js';
import type { ChatMessage, ToolSpec } from './provider.js';

/**
 * Tokens a chat template adds around each message (`<|im_start|>role\n … <|im_end|>\n`, a tool result's
 * `<tool_response>` tags), around each tool call, around each tool (its `{"type": "function", …}` wrapper), and
 * once (the tool section's preamble). Generous for ChatML; a template that adds more is learnt from the
 * server's own count of the prompt (`usage.prompt_tokens`, see {@link ContextBudget.learn}).
 */
const OVERHEAD = { message: 24, call: 24, tool: 24, request: 64 } as const;

/** Bytes per token of the estimate used where the server has no tokenizer: few, so an estimate that fits does. */
export const ESTIMATE_BYTES_PER_TOKEN = 3;

/**
 * Tokens an image input is counted at: above what the vision encoders of small open models give a frame of
 * Mira's budget (Gemma 3: 256, Qwen2.5-VL: ~250 for 512×384, LLaVA 1.5: 576) and OpenAI's `detail: "low"` (85
 * on gpt-4o); a server that counts more is learnt from its `usage.prompt_tokens`.
 */
export const IMAGE_TOKENS = 768;

/** Entries kept in the cache of counts before it starts again. */
const CACHE_LIMIT = 4096;

/** The visible marker in place of the part of a tool result a request had no room for. */
export function shortenedMarker(characters: number): string {
  return `[shortened: ${characters} characters]`;
}

/** Characters of a tool result kept before its marker when it is first shortened (then none). */
export const SHORTENED_HEAD = 240;

/**
 * Keeps a session's requests inside the model's context: counts a request's tokens (with the server's own
 * tokenizer where it has one, each distinct text counted once; otherwise {@link ESTIMATE_BYTES_PER_TOKEN}),
 * learns how far the server's counts of whole prompts run above its estimates, and lowers its limit when the
 * server refuses a request as too long.
 */
export class ContextBudget {
  readonly #count: (text: string) => Promise<number | undefined>;
  readonly #countTools: ((tools: readonly ToolSpec[]) => Promise<number | undefined>) | undefined;
  readonly #cache = new Map<string, number>();
  /** Each tool set's tokens (few per session: the full and the compact forms). */
  readonly #toolCounts = new Map<string, Promise<number>>();
  #limit: number | undefined;
  /** The answer's token limit, when known: the context is the limit and this. */
  #answer: number | undefined;
  #scale = 1;

  /**
   * @param limit the prompt tokens a request may carry (the context less the answer's limit), when known.
   * @param count the server's tokenizer: a text's tokens, or undefined when it cannot say.
   * @param countTools the tokens the server's chat template renders for a set of tools, or undefined when it
   *   cannot say (then their JSON is counted, with an overhead per tool).
   * @param answer the answer's token limit the requests carry (`max_tokens`), when known.
   */
  constructor(
    limit: number | undefined,
    count: (text: string) => Promise<number | undefined>,
    countTools?: (tools: readonly ToolSpec[]) => Promise<number | undefined>,
    answer?: number,
  ) {
    this.#limit = limit;
    this.#answer = limit === undefined ? undefined : answer;
    this.#count = count;
    this.#countTools = countTools;
  }

  /** The prompt tokens a request may carry, when known. */
  get limit(): number | undefined {
    return this.#limit;
  }

  /** The answer's token limit, when known (lowered by {@link shrinkAnswer}). */
  get answer(): number | undefined {
    return this.#answer;
  }

  /**
   * Gives the prompt the context's tokens an answer of `answer` tokens leaves (fewer than now): the limit rises
   * by what the answer gives up. Returns false, changing nothing, when the answer is unknown or not lowered.
   */
  shrinkAnswer(answer: number): boolean {
    if (this.#limit === undefined || this.#answer === undefined || answer >= this.#answer) return false;
    this.#limit += this.#answer - answer;
    this.#answer = answer;
    return true;
  }

  async #tokens(text: string): Promise<number> {
    const known = this.#cache.get(text);
    if (known !== undefined) return known;
    const counted = text === '' ? 0 : await this.#count(text).catch(() => undefined);
    const tokens = counted ?? Math.ceil(Buffer.byteLength(text, 'utf8') / ESTIMATE_BYTES_PER_TOKEN);
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(text, tokens);
    return tokens;
  }

  async #message(message: ChatMessage): Promise<number> {
    let tokens = OVERHEAD.message + (await this.#tokens(message.content ?? ''));
    if (message.role === 'user') tokens += IMAGE_TOKENS * (message.images?.length ?? 0);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        tokens += OVERHEAD.call + (await this.#tokens(call.name)) + (await this.#tokens(call.arguments));
      }
    }
    return tokens;
  }

  /**
   * The tools' tokens (the same for every call of a session, so counted once): as the server's chat template
   * renders them where it can say (Llama 3.x's templates write them indented, at 3 times their JSON), otherwise
   * their JSON as one text with an overhead per tool.
   */
  tools(tools: readonly ToolSpec[]): Promise<number> {
    if (tools.length === 0) return Promise.resolve(0);
    const key = JSON.stringify(tools);
    let found = this.#toolCounts.get(key);
    if (!found) {
      found = (async () => {
        const rendered = await this.#countTools?.(tools).catch(() => undefined);
        return rendered ?? (await this.#tokens(key)) + OVERHEAD.tool * tools.length;
      })();
      this.#toolCounts.set(key, found);
    }
    return found;
  }

  /** A request's tokens as estimated: template overhead and the learnt scale included. */
  async measure(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<number> {
    const counts = await Promise.all(messages.map((message) => this.#message(message)));
    const raw = counts.reduce((a, b) => a + b, OVERHEAD.request) + (await this.tools(tools));
    return Math.ceil(raw * this.#scale);
  }

  /** Whether a request of `tokens` (from {@link measure}) fits, with `reserve` tokens to spare. */
  fits(tokens: number, reserve = 0): boolean {
    return this.#limit === undefined || tokens + reserve <= this.#limit;
  }

  /**
   * After an answer: the server's count of the prompt it read (`usage.prompt_tokens`), against the estimate of
   * the same request, raises the scale when the server counted more (a template that adds more than ChatML).
   */
  learn(estimate: number, actual: number | undefined): void {
    if (actual === undefined || estimate <= 0 || actual <= estimate) return;
    this.#scale = Math.min(this.#scale * (actual / estimate), 4);
  }

  /**
   * After the server refused a request estimated at `estimate` tokens as too long: the limit drops to three
   * quarters of it, for the retry and the rest of the session (the context the profile or server gave was
   * wrong, or the template adds more than the estimate knows).
   */
  refused(estimate: number): void {
    this.#limit = Math.min(this.#limit ?? Infinity, Math.floor(estimate * 0.75));
  }
}

/** Working memory's entries kept when a block is left out to fit the context: the newest two turns. */
export const HISTORY_KEPT_AFTER_DROP = 4;

/**
 * Where working memory's turns start after leaving out a block from `start`: all but the newest
 * {@link HISTORY_KEPT_AFTER_DROP} entries, or, when no more than those are sent, the oldest turn of them
 * (whole turns: an even number of entries). A block at once, rather than a turn per episode, keeps what is
 * sent the same for many episodes; and few kept, because the call after a drop re-reads them (as working
 * memory's own drop, see `WorkingMemory`: keeping the older half re-read enough to reuse only 0.82 of it).
 */
export function dropHistoryBlock(start: number, length: number): number {
  const left = length - start;
  const drop = left > HISTORY_KEPT_AFTER_DROP ? left - HISTORY_KEPT_AFTER_DROP : 2;
  return Math.min(length, start + drop + (drop % 2));
}

/**
 * Leaves out, in place, the oldest robot-state block that is not the newest one among `messages` (an episode's
 * opening and its exchange): the state a later message carries is the state now, so an older block is the first
 * thing a request with no other room can lose. Returns false when only the newest block is left.
 */
export function dropOldGrounding(messages: ChatMessage[]): boolean {
  const marker = `\n\n${GROUNDING_HEADER}\n`;
  const carrying = messages.flatMap((message, i) =>
    message.role !== 'assistant' && message.content.includes(marker) ? [i] : [],
  );
  if (carrying.length < 2) return false;
  const i = carrying[0]!;
  const message = messages[i]!;
  if (message.role === 'assistant') return false;
  messages[i] = { ...message, content: message.content.slice(0, message.content.indexOf(marker)) };
  return true;
}

/**
 * Shortens the oldest tool result of `exchange` that can be shortened more, in place: first, oldest first,
 * each result longer than {@link SHORTENED_HEAD} characters to its first {@link SHORTENED_HEAD}; then, oldest
 * first, each to none; each time followed by the marker that says how many characters were left out. The
 * grounding block a result carries is kept whole. Returns false when no result can be shortened more.
 */
export function shortenOldestResult(exchange: ChatMessage[]): boolean {
  for (const head of [SHORTENED_HEAD, 0]) {
    for (const [i, message] of exchange.entries()) {
      if (message.role !== 'tool') continue;
      const at = message.content.indexOf(`\n\n${GROUNDING_HEADER}\n`);
      const result = at < 0 ? message.content : message.content.slice(0, at);
      const grounding = at < 0 ? '' : message.content.slice(at);
      const marked = /^([\s\S]*?) ?\[shortened: (\d+) characters\]$/.exec(result);
      const kept = marked ? marked[1]! : result;
      // Shortening must save more than the marker costs.
      if (kept.length <= head + 32) continue;
      const left = kept.slice(0, head);
      const cut = (marked ? Number(marked[2]) : 0) + kept.length - left.length;
      exchange[i] = { ...message, content: `${left}${left === '' ? '' : ' '}${shortenedMarker(cut)}${grounding}` };
      return true;
    }
  }
  return false;
}
