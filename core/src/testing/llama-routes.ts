/**
 * llama-server's routes beside Chat Completions, as the double answers them: `GET /props`, `POST /tokenize` and
 * `POST /apply-template`, with the double's chat template.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderTemplate, templateCaps, templateError, type ScriptedTemplate } from './chat-templates.js';
import { tokenIds, type WireMessage, type WireTool } from './model-prompt.js';
import { LLAMA_BUILD_INFO, errorBody, historyError, sendJson, type ModelServerFlavor } from './server-reading.js';

/** What the routes answer from (the double's options, defaults filled in) and record into. */
export interface LlamaRoutes {
  readonly flavor: ModelServerFlavor;
  readonly nCtx: number;
  readonly template: ScriptedTemplate;
  readonly rendersTools: boolean;
  readonly applyTemplate: boolean;
  readonly vision: boolean;
  readonly tokenizeRequests: string[];
  readonly templateRequests: Array<Record<string, unknown>>;
}

/**
 * Answers a request to one of llama-server's routes beside Chat Completions; true when it was answered. An
 * `/apply-template` the server has no route for is recorded (when it parses) and left to be answered 404.
 */
export function answerLlamaRoute(req: IncomingMessage, res: ServerResponse, raw: string, routes: LlamaRoutes): boolean {
  const { flavor, nCtx, template, rendersTools, applyTemplate, vision, tokenizeRequests, templateRequests } = routes;
  if (req.method === 'GET' && req.url === '/props' && flavor === 'llama-server') {
    // server-context.cpp `get_res_props`; caps from common/jinja/caps.cpp `caps::to_map()`.
    sendJson(res, 200, {
      default_generation_settings: { params: {}, n_ctx: nCtx },
      total_slots: 1,
      model_alias: 'scripted-model',
      model_path: 'scripted-model.gguf',
      modalities: { vision, video: false, audio: false },
      chat_template: `{# ${template}${rendersTools ? '' : ', no tools'} #}`,
      chat_template_caps: templateCaps(template, rendersTools),
      build_info: LLAMA_BUILD_INFO,
      is_sleeping: false,
    });
    return true;
  }
  if (req.method === 'POST' && req.url === '/tokenize' && flavor === 'llama-server') {
    // server-context.cpp `post_tokenize`: `{content}` → `{tokens}` (ids; `with_pieces` not modelled). No content
    // is no tokens; content that is neither a string nor a list fails nlohmann's `get<std::string>()` (500).
    const body = JSON.parse(raw) as { content?: unknown };
    if (body.content !== undefined && typeof body.content !== 'string' && !Array.isArray(body.content)) {
      const type = body.content === null ? 'null' : typeof body.content;
      sendJson(res, 500, errorBody(flavor, 500, `[json.exception.type_error.302] type must be string, but is ${type}`));
      return true;
    }
    // server-common.cpp `tokenize_mixed`: a list mixes texts and token ids.
    const parts: unknown[] = body.content === undefined ? [] : [body.content].flat();
    const texts = parts.filter((p): p is string => typeof p === 'string');
    tokenizeRequests.push(...texts);
    sendJson(res, 200, { tokens: parts.flatMap((p) => (typeof p === 'string' ? tokenIds(p) : [p])) });
    return true;
  }
  if (req.method === 'POST' && req.url === '/apply-template' && flavor === 'llama-server' && applyTemplate) {
    applyTemplateRoute(res, raw, routes);
    return true;
  }
  if (req.url === '/apply-template') {
    try {
      templateRequests.push(JSON.parse(raw) as Record<string, unknown>);
    } catch {
      // Recorded only when it parses, as on a server with the route.
    }
  }
  return false;
}

/**
 * server-context.cpp `post_apply_template`: the request read as a chat completion's is
 * (`oaicompat_chat_params_parse`, the same refusals) and rendered, `{prompt}`; nothing is generated, the context
 * is not checked, the slot is kept.
 */
function applyTemplateRoute(res: ServerResponse, raw: string, routes: LlamaRoutes): void {
  const { flavor, template, rendersTools, templateRequests } = routes;
  let body: { messages?: unknown; tools?: WireTool[] };
  try {
    body = JSON.parse(raw);
  } catch (error) {
    // nlohmann's parse_error is no invalid_argument: ex_wrapper answers it as a server error.
    sendJson(res, 500, errorBody(flavor, 500, `[json.exception.parse_error.101] ${(error as Error).message}`));
    return;
  }
  templateRequests.push(body as Record<string, unknown>);
  if (body.messages === undefined) {
    sendJson(res, 400, errorBody(flavor, 400, "'messages' is required"));
    return;
  }
  if (!Array.isArray(body.messages)) {
    sendJson(res, 400, errorBody(flavor, 400, "Expected 'messages' to be an array"));
    return;
  }
  const messages = body.messages as WireMessage[];
  const tools = rendersTools ? (body.tools ?? []) : [];
  const refused = historyError(flavor, messages, rendersTools) ?? templateError(template, messages, tools);
  if (refused) {
    sendJson(res, refused[0], errorBody(flavor, refused[0], refused[1]));
    return;
  }
  sendJson(res, 200, { prompt: renderTemplate(template, messages, tools, rendersTools) });
}
