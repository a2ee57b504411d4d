import type { ConsoleOutput } from '../console/command.js';
import { crossThreadNow } from '../clock.js';
import { CognitionErrors, CoreErrors, toMiraError } from '../errors.js';
import type { KernelHooks } from '../hooks.js';
import type { SensorDefinition, SensorReading } from '../sensors.js';
import type { EpisodeInfo, RegisteredTool, ToolCatalogue, ToolImage, ToolResult } from '../tools.js';
import type { EpisodeOrigin, RuntimeServices } from '../types.js';
import type { WorkingMemory } from '../working-memory.js';
import type {
  ChatMessage,
  CognitionProvider,
  ModelResponse,
  ModelToolCall,
  ProviderCheck,
  ToolSpec,
} from './provider.js';
import { SessionContext, messagesOf, type Prompt } from './session-context.js';
import { callProgress } from './streamed-reply.js';
import { withoutThinking } from './thinking.js';
import { baseInstructions } from './prompt.js';
import { groundingBlock, renderSection, withGrounding } from './grounding.js';
import { tapCoreGrounding } from './core-grounding.js';
import { ARGUMENTS_STAND_IN, parseToolArguments, sendableArguments } from './arguments.js';
import { printable, speakerLines } from '../text/printable.js';

/** Acquisition attempts per episode (the specification's fixed budget). */
export const ACQUISITION_BUDGET = 2;
/** Default bound on model calls per episode; stops tool loops. */
export const DEFAULT_MAX_MODEL_STEPS = 8;
/** Longest `error` text a rejected tool result carries. */
export const MAX_RESULT_ERROR_LENGTH = 200;

/** What to run. */
export interface EpisodeRequest {
  readonly origin: EpisodeOrigin;
  /** The operator's words; required for `operator` episodes, absent otherwise. */
  readonly utterance?: string;
  /** Why an autonomous episode started, e.g. `battery below 20%`. */
  readonly trigger?: string;
  /** Where the reply and tool lines are printed. */
  readonly out: ConsoleOutput;
  /** When the request was asked (`crossThreadNow()`; a typed line: when it was read); default: now. */
  readonly askedAt?: number;
}

/** One tool call of an episode and the runtime's answer. */
export interface ToolCallRecord {
  readonly name: string;
  readonly result: ToolResult;
}

/** How an episode ended. */
export interface EpisodeResult {
  readonly episode: EpisodeInfo;
  readonly reply: string;
  readonly toolCalls: readonly ToolCallRecord[];
  readonly modelSteps: number;
}

/**
 * A rejected tool result in the uniform shape `{status, reason, error}`, with `details` after them when the
 * model needs more to answer (the IDs an ambiguous name has, `candidate_ids`).
 */
export function rejectedResult(
  reason: string,
  error: string,
  details: Readonly<Record<string, unknown>> = {},
): ToolResult {
  const bounded = error.length > MAX_RESULT_ERROR_LENGTH ? `${error.slice(0, MAX_RESULT_ERROR_LENGTH - 1)}…` : error;
  return {
    content: JSON.stringify({ status: 'rejected', reason, error: bounded, ...details }),
    display: `rejected ${reason}`,
  };
}

/** The refusal of a call to a tool this episode's origin is not offered (or no such tool). */
export function notOffered(name: string, origin: EpisodeOrigin, registered?: RegisteredTool): ToolResult {
  return rejectedResult(
    registered?.tool.refusalReason ?? 'tool_not_available',
    `no tool "${name.slice(0, 64)}" is offered in ${origin} episodes; nothing was done`,
  );
}

/** The refusal of arguments that do not match the tool's schema (after `registered.validate` said so). */
export function invalidArguments(registered: RegisteredTool): ToolResult {
  const first = registered.validate.errors?.[0];
  return rejectedResult(
    'invalid_tool_arguments',
    `arguments do not match the schema at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`,
  );
}

/** What the opening user message says: the operator's words, or why an autonomous episode started. */
function openingWords(request: EpisodeRequest): string {
  return request.origin === 'operator'
    ? request.utterance!
    : `(autonomous ${request.origin} episode; no operator is speaking) ${request.trigger ?? ''}`.trim();
}

/** An image a tool of the step returned, with its tool's name and result line. */
interface ShownImage {
  readonly name: string;
  readonly display: string;
  readonly image: ToolImage;
}

/** The user message carrying a step's images after its tool results: each result's line, then the images. */
function imagesMessage(shown: readonly ShownImage[]): ChatMessage {
  return {
    role: 'user',
    content: shown.map(({ name, display }) => `[${name}] ${printable(display)}`).join('\n'),
    images: shown.map(({ image }) => image),
  };
}

/** What the episode engine works with: narrow views, not the kernel. */
export interface EngineInputs {
  readonly tools: ToolCatalogue;
  readonly hooks: KernelHooks;
  readonly workingMemory: WorkingMemory;
  /** Clock, profile (the runtime self) and log. */
  readonly services: RuntimeServices;
  /** The sensors and their latest readings, for the sensor grounding. */
  readonly sensors: { list(): readonly SensorDefinition[]; latest(id: string): SensorReading | undefined };
  readonly maxModelSteps?: number;
}

/**
 * The provider-agnostic episode loop. Before every model call it rebuilds
 * grounding through `hooks.grounding`; it offers tools by origin and budget,
 * validates every call's arguments, and prints one line per tool result and
 * the reply as `<name>: <text>`.
 */
export class EpisodeEngine {
  readonly #in: EngineInputs;
  readonly #maxSteps: number;
  readonly #sessionStart: number;
  #provider: { provider: CognitionProvider; owner: string } | undefined;
  #check: Promise<ProviderCheck> | undefined;
  /** The session's context: the budget, the form of the tools, where working memory's turns start. */
  #context: SessionContext | undefined;
  #nextEpisode = 1;

  constructor(inputs: EngineInputs) {
    this.#in = inputs;
    this.#maxSteps = inputs.maxModelSteps ?? DEFAULT_MAX_MODEL_STEPS;
    this.#sessionStart = inputs.services.clock.monotonic();
    tapCoreGrounding(inputs, this.#sessionStart);
  }

  /** Sets the model backend. @throws MiraError when one is already set. */
  setProvider(provider: CognitionProvider, owner: string): void {
    if (this.#provider) {
      throw CognitionErrors.error('DUPLICATE_PROVIDER', { owner, owner2: this.#provider.owner });
    }
    this.#provider = { provider, owner };
  }

  /** Whether the model is shown the images tools return (its provider says so). */
  get #seesImages(): boolean {
    return this.#provider?.provider.seesImages === true;
  }

  /** True when a provider is registered. */
  get configured(): boolean {
    return this.#provider !== undefined;
  }

  /**
   * Runs one episode to its reply.
   * @throws MiraError on provider failure or the step bound; nothing durable changes.
   */
  async run(request: EpisodeRequest): Promise<EpisodeResult> {
    if (!this.#provider) {
      throw CoreErrors.error('COGNITION_NOT_CONFIGURED.episode');
    }
    if (request.origin === 'operator' && (request.utterance === undefined || request.utterance.trim() === '')) {
      throw CoreErrors.error('CONSOLE_USAGE.noUtterance');
    }
    const episode: EpisodeInfo = Object.freeze({
      id: this.#nextEpisode++,
      origin: request.origin,
      utterance: request.origin === 'operator' ? request.utterance : undefined,
      startedAt: this.#in.services.clock.now(),
      askedAt: request.askedAt ?? crossThreadNow(),
    });
    const { hooks } = this.#in;
    hooks.episodeStarted.call(episode);
    try {
      const result = await this.#loop(request, episode);
      hooks.episodeFinished.call(episode, { reply: result.reply });
      return result;
    } catch (error) {
      hooks.episodeFinished.call(episode, { error: toMiraError(error).code });
      throw error;
    }
  }

  async #loop(request: EpisodeRequest, episode: EpisodeInfo): Promise<EpisodeResult> {
    const { tools, hooks, workingMemory } = this.#in;
    const { clock, profile } = this.#in.services;
    const entries = workingMemory.entries();
    // The opening user message, with the grounding of the episode's first call appended (set at step 1).
    let opening: ChatMessage = { role: 'user', content: openingWords(request) };
    const exchange: ChatMessage[] = [];
    const records: ToolCallRecord[] = [];
    const uses = new Map<string, number>();
    let acquisitions = 0;
    const print = (text: string) => {
      for (const line of speakerLines(profile.name, text).split('\n')) request.out.print(line);
    };
    const remember = (reply: string) => {
      if (request.origin !== 'operator') return;
      workingMemory.add('operator', request.utterance!, episode.startedAt);
      workingMemory.add('assistant', reply, clock.now());
    };

    // Where working memory's turns start: chosen at the episode's first call, then kept (see SessionContext#fit).
    let start: number | undefined;
    const context = await this.#sessionContext();
    for (let step = 1; step <= this.#maxSteps; step += 1) {
      const grounding = await hooks.grounding.promise({ sections: [] }, episode);
      const fixed = grounding.sections.filter((section) => section.fixed);
      const system: ChatMessage = {
        role: 'system',
        content: [baseInstructions(profile), ...fixed.map(renderSection)].join('\n\n'),
      };
      // What changes from call to call (time, sensors, grounding) rides on the newest message of the episode:
      // the opening at its first call, then the last tool result of the step before. A message once sent is
      // never rewritten, so each call's prompt extends the one before (a prefix cache keeps all of it), and no
      // `system` message follows the first (many chat templates refuse or drop one; see GROUNDING_HEADER).
      const state = groundingBlock(grounding.sections.filter((section) => !section.fixed));
      if (step === 1) opening = withGrounding(opening, state);
      else exchange.push(withGrounding(exchange.pop()!, state));
      // Fixed for the session, first, and byte-identical across calls, so a server's prefix cache reuses it:
      // the instructions and every tool this origin may use, in registration order. A spent budget is said
      // by the tool's result, never by a changed list (a changed list is a changed prefix).
      const parts: Prompt = {
        system,
        tools: await context.toolsFor(request.origin, system),
        entries,
        start: start ?? context.historyStart(entries),
        opening,
        exchange,
        episode,
      };
      let { response, printed } = await this.#send(parts, step === 1, request.out);
      start = parts.start;
      let text = withoutThinking(response.text)?.trim() ?? '';
      if (response.toolCalls.length === 0 && text === '' && !response.refusal && isPlainStop(response)) {
        // An empty answer is asked again once, unchanged: a sampling model may well answer the second time.
        ({ response, printed } = await this.#send(parts, false, request.out));
        text = withoutThinking(response.text)?.trim() ?? '';
      }
      // An answer cut at the token limit ends the episode, its tool calls unrun: the last call's arguments are
      // incomplete, and the calls before it are part of a plan that was cut too (a drive before the check
      // that was to follow it). The note says so and what to raise.
      if (response.toolCalls.length === 0 || response.finishReason === 'length') {
        return this.#finish(request, episode, records, step, response, text, printed ? () => {} : print, remember);
      }
      // The history carries only arguments a server can read: a server that parses them (llama.cpp's does)
      // would refuse every later request of the episode; the tool result says the model's were invalid.
      const sent = response.toolCalls.map((call) => ({ ...call, arguments: sendableArguments(call.arguments) }));
      exchange.push({ role: 'assistant', content: withoutThinking(response.text), toolCalls: sent });
      const shown: ShownImage[] = [];
      for (const call of response.toolCalls) {
        const registered = tools.get(call.name);
        let result: ToolResult;
        // Budgets are checked per call: one answer may hold several calls.
        if (!registered || !this.#allowed(registered, request.origin, acquisitions, uses)) {
          result = this.#refusal(registered, request.origin, acquisitions, uses, call);
        } else {
          if (registered.tool.kind === 'acquisition') acquisitions += 1;
          uses.set(call.name, (uses.get(call.name) ?? 0) + 1);
          result = await this.#invoke(registered, call, episode);
        }
        records.push({ name: call.name, result });
        // A name the registry does not know came from the model alone: shown escaped and cut.
        const shownName = registered ? call.name : printable(call.name).replaceAll('\n', '\\x0a').slice(0, 64);
        request.out.print(`[${shownName}] ${printable(result.display).replaceAll('\n', ' ')}`);
        exchange.push({ role: 'tool', toolCallId: call.id, content: result.content });
        if (result.image && this.#seesImages)
          shown.push({ name: call.name, display: result.display, image: result.image });
      }
      // A tool message holds text only (Chat Completions), so the step's images follow its results in a user
      // message: at the tail, sent from this step on and only in this episode, never in a cached prefix.
      if (shown.length > 0) exchange.push(imagesMessage(shown));
    }
    throw CognitionErrors.error('STEP_LIMIT', { maxSteps: this.#maxSteps });
  }

  /** The provider's check, asked once; its warnings are logged (a server that cannot say is no error). */
  #checked(): Promise<ProviderCheck> {
    const { provider, owner } = this.#provider!;
    this.#check ??= (async () => {
      // The operator's tools: the fullest set, what a probe render of a tool exchange is tried with.
      const found = (await provider.check?.(this.#toolSpecs('operator')).catch((error: unknown) => {
        this.#in.services.log.warn(
          `cognition: ${owner} could not check the model server: ${toMiraError(error).message}`,
        );
        return undefined;
      })) ?? { warnings: [] };
      for (const warning of found.warnings) this.#in.services.log.warn(warning);
      return found;
    })();
    return this.#check;
  }

  /** The session's context, made once the provider's check said how long a request may be. */
  async #sessionContext(): Promise<SessionContext> {
    const { promptTokens, answerTokens } = await this.#checked();
    const { provider } = this.#provider!;
    this.#context ??= new SessionContext({
      promptTokens,
      answerTokens,
      countTokens: (text) => provider.countTokens?.(text) ?? Promise.resolve(undefined),
      countToolTokens: (tools) => provider.countToolTokens?.(tools) ?? Promise.resolve(undefined),
      offered: (origin) => this.#toolSpecs(origin),
      warn: (message) => this.#in.services.log.warn(message),
    });
    return this.#context;
  }

  /**
   * One model call, inside the context (see SessionContext#fit). A request the server still refuses as too long
   * is sent again trimmed (SessionContext#refused), as long as something can be trimmed.
   */
  async #send(
    parts: Prompt,
    firstCall: boolean,
    out: ConsoleOutput,
  ): Promise<{ response: ModelResponse; printed: boolean }> {
    const { provider } = this.#provider!;
    const context = await this.#sessionContext();
    let tokens = await context.fit(parts, firstCall);
    // The operator sees it working: a waiting line on a terminal, the text as it streams in.
    const { waiting, reply } = callProgress(out, this.#in.services.profile.name);
    const onText = reply && ((delta: string) => reply.add(delta));
    try {
      for (let retry = 0; ; retry += 1) {
        const messages = messagesOf(parts);
        try {
          const answer = context.budget.answer;
          const response = await provider.complete({
            messages,
            tools: parts.tools,
            episode: parts.episode,
            ...(answer === undefined ? {} : { maxTokens: answer }),
            ...(onText ? { onText } : {}),
          });
          context.budget.learn(tokens, response.usage?.promptTokens);
          return { response, printed: reply?.started ?? false };
        } catch (error) {
          if (reply?.started) throw error;
          if (toMiraError(error).code !== CognitionErrors.codes.CONTEXT_OVERFLOW || retry >= 3) throw error;
          const trimmed = await context.refused(parts, tokens);
          if (trimmed === undefined) throw error;
          tokens = trimmed;
          this.#in.services.log.warn(
            `cognition: the model server refused the request as too long; sent again trimmed to about ${context.budget.limit} tokens`,
          );
        }
      }
    } finally {
      waiting?.stop();
      reply?.end();
    }
  }

  /**
   * Ends an episode on an answer without tool calls, or on one cut at the token limit (its calls are never
   * run): the reply, and a plain note when it is not whole.
   */
  #finish(
    request: EpisodeRequest,
    episode: EpisodeInfo,
    records: ToolCallRecord[],
    step: number,
    response: ModelResponse,
    text: string,
    print: (text: string) => void,
    remember: (reply: string) => void,
  ): EpisodeResult {
    const note = (line: string) => request.out.print(`note: ${line}`);
    if (response.refusal) {
      print(response.refusal.trim());
      note('the model declined to answer');
      return { episode, reply: '', toolCalls: records, modelSteps: step };
    }
    if (text !== '') {
      print(text);
      remember(text);
    }
    const limit = response.tokenLimit === undefined ? '' : ` of ${response.tokenLimit} tokens`;
    const calls = response.toolCalls.length;
    const raise = response.tokenLimitSetting ? `raise ${response.tokenLimitSetting} in the profile` : 'raise it';
    if (response.finishReason === 'length' && calls > 0) {
      note(
        `the model's answer was cut off at its limit${limit} per answer inside a tool call, so none of its ${calls} tool call${calls === 1 ? '' : 's'} was run; ${raise}, or ask for less at once`,
      );
    } else if (response.finishReason === 'length') {
      note(
        text === ''
          ? `the model reached its limit${limit} per answer without a reply; ask again more simply, or ${raise}`
          : `the reply was cut off at the model's limit${limit} per answer; for longer replies, ${raise}`,
      );
    } else if (response.finishReason === 'content_filter') {
      note("the model's provider withheld the rest of the reply (its content filter)");
    } else if (text === '') {
      note('the model gave no reply (it answered with nothing, twice); please ask again');
    }
    return { episode, reply: text, toolCalls: records, modelSteps: step };
  }

  /** The tools an origin may use: the same list for every call of every episode of that origin. */
  #offered(origin: EpisodeOrigin): RegisteredTool[] {
    return this.#in.tools.values().filter(({ tool }) => tool.origins.includes(origin));
  }

  /** The tools an origin is offered, as requests carry them. */
  #toolSpecs(origin: EpisodeOrigin): ToolSpec[] {
    return this.#offered(origin).map(({ tool }) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
  }

  /** Whether a call may run now: offered to the origin, and within the episode's budgets. */
  #allowed(
    registered: RegisteredTool,
    origin: EpisodeOrigin,
    acquisitions: number,
    uses: ReadonlyMap<string, number>,
  ): boolean {
    const { tool } = registered;
    if (!tool.origins.includes(origin)) return false;
    if (tool.kind === 'acquisition' && acquisitions >= ACQUISITION_BUDGET) return false;
    return tool.maxCallsPerEpisode === undefined || (uses.get(tool.name) ?? 0) < tool.maxCallsPerEpisode;
  }

  #refusal(
    registered: RegisteredTool | undefined,
    origin: EpisodeOrigin,
    acquisitions: number,
    uses: ReadonlyMap<string, number>,
    call: ModelToolCall,
  ): ToolResult {
    const reason = (generic: string) => registered?.tool.refusalReason ?? generic;
    if (!registered || !registered.tool.origins.includes(origin)) return notOffered(call.name, origin, registered);
    if (registered.tool.kind === 'acquisition' && acquisitions >= ACQUISITION_BUDGET) {
      return rejectedResult(
        reason('acquisition_budget_exhausted'),
        `acquisition budget exhausted: this episode already used its ${ACQUISITION_BUDGET} acquisition attempts; answer with what you have`,
      );
    }
    const limit = registered.tool.maxCallsPerEpisode ?? 0;
    const used = uses.get(call.name) ?? 0;
    return rejectedResult(
      reason('tool_budget_exhausted'),
      `${call.name} may be called at most ${limit} time${limit === 1 ? '' : 's'} per episode (${used} used); nothing was done`,
    );
  }

  async #invoke(registered: RegisteredTool, call: ModelToolCall, episode: EpisodeInfo): Promise<ToolResult> {
    const { hooks } = this.#in;
    const args = parseToolArguments(call.arguments);
    if (args === undefined) {
      return rejectedResult(
        'invalid_tool_arguments',
        `the arguments are not valid JSON, so they are shown to you as ${ARGUMENTS_STAND_IN}; nothing was done: call again with arguments that match the schema`,
      );
    }
    if (!registered.validate(args)) return invalidArguments(registered);
    const toolCall = { id: call.id, name: call.name, rawArguments: call.arguments };
    let result = await hooks.beforeToolCall.promise(toolCall, episode);
    if (!result) {
      try {
        result = await registered.tool.run(args, { episode, seesImages: this.#seesImages });
      } catch (error) {
        const failure = toMiraError(error);
        this.#in.services.log.error(`tool ${call.name} of plugin ${registered.owner} failed: ${failure.message}`);
        result = rejectedResult('tool_failed', `${call.name} failed (${failure.code}); nothing was done`);
      }
    }
    await hooks.afterToolCall.promise(toolCall, result, episode);
    return result;
  }
}

/** An answer that ended as a finished one does (not cut, not filtered): an empty one is worth asking again. */
function isPlainStop(response: ModelResponse): boolean {
  return response.finishReason === undefined || response.finishReason === 'stop';
}
