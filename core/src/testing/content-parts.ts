/**
 * Messages whose content is an array of parts (Chat Completions' content parts): where each server takes
 * image inputs, and how it refuses them elsewhere.
 *
 * OpenAI (Chat Completions reference, "Create chat completion" → messages): a user message's content parts
 * are `text`, `image_url` (`{url, detail?: "auto" | "low" | "high"}`, a URL or a base64 data URL of a PNG,
 * JPEG, WEBP or non-animated GIF), `input_audio` and `file`; a system, developer or tool message's are `text`
 * only; an assistant's `text` or `refusal`. An image anywhere but a user message is a 400.
 *
 * llama-server (`tools/server/server-common.cpp` `oaicompat_chat_params_parse` and `handle_media`): every
 * message but an assistant one without content is read; an `image_url` part without a multimodal projector
 * (`--mmproj`) is a `std::runtime_error` (HTTP 500, `server_error`); with one, in any role's message, its URL
 * must be a `data:image/…;base64,…` URL (a remote URL needs the build's download support, which the bundled
 * build leaves out) whose bytes the image loader reads (`server-common.cpp` `process_mtmd_prompt`: "Failed to
 * load image or audio file", 500); any other part type than `text` is a 400 (`unsupported content[].type`).
 * The part becomes a media marker in the rendered prompt.
 */

/** llama-server's media marker (`get_media_marker()`; random per process unless `LLAMA_MEDIA_MARKER` pins it). */
export const MEDIA_MARKER = '<__media__>';
/**
 * Tokens the double's vision encoder gives an image (Gemma 3's fixed 256; the real count depends on the
 * projector and the image's size).
 */
export const IMAGE_TOKENS = 256;

/** One content part as received. */
interface Part {
  type?: unknown;
  text?: unknown;
  image_url?: { url?: unknown; detail?: unknown };
}

/** A message as received, content possibly an array. */
interface Received {
  role: string;
  content?: unknown;
}

/** Image formats OpenAI accepts, by the type a data URL names. */
const OPENAI_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Whether the bytes begin as an image llama.cpp's loader (stb_image) reads: JPEG, PNG, GIF or BMP. */
function loadable(bytes: Buffer): boolean {
  const jpeg = bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const ended = bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const gif = bytes.subarray(0, 4).toString('latin1') === 'GIF8';
  const bmp = bytes.subarray(0, 2).toString('latin1') === 'BM';
  return (jpeg && ended) || png || gif || bmp;
}

/** A data URL's media type and bytes, or undefined when it is none. */
function dataUrl(url: string): { type: string; bytes: Buffer } | undefined {
  const match = /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(url);
  if (!match) return undefined;
  const bytes = Buffer.from(match[2]!, 'base64');
  return bytes.length > 0 ? { type: match[1]!, bytes } : undefined;
}

/**
 * Why the server refuses the messages' content parts, as it says it (`[status, message, type?]`), or
 * undefined when it takes them.
 */
export function contentPartsError(
  flavor: 'llama-server' | 'openai',
  messages: readonly Received[],
  vision: boolean,
): [number, string] | undefined {
  for (const [i, message] of messages.entries()) {
    const content = message.content;
    if (content === undefined || content === null || typeof content === 'string') continue;
    if (!Array.isArray(content)) {
      return flavor === 'openai'
        ? [400, `Invalid type for 'messages[${i}].content': expected one of a string or array of objects.`]
        : [400, "Expected 'content' to be a string or an array"];
    }
    for (const [j, part] of (content as Part[]).entries()) {
      const refusal = flavor === 'openai' ? openAIPartError(message.role, i, j, part) : llamaPartError(part, vision);
      if (refusal) return refusal;
    }
  }
  return undefined;
}

function openAIPartError(role: string, i: number, j: number, part: Part): [number, string] | undefined {
  const at = `messages[${i}].content[${j}]`;
  if (part.type === 'text') {
    return typeof part.text === 'string' ? undefined : [400, `Missing required parameter: '${at}.text'.`];
  }
  if (part.type !== 'image_url') {
    const allowed = role === 'user' ? "'text', 'image_url', 'input_audio' and 'file'" : "'text'";
    return [400, `Invalid value: '${String(part.type)}'. Supported values are: ${allowed}.`];
  }
  if (role !== 'user') {
    return [
      400,
      `Invalid 'messages[${i}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${role}' contains an image URL.`,
    ];
  }
  const detail = part.image_url?.detail;
  if (detail !== undefined && !['auto', 'low', 'high'].includes(String(detail))) {
    return [400, `Invalid value: '${String(detail)}'. Supported values are: 'auto', 'low', and 'high'.`];
  }
  const url = part.image_url?.url;
  if (typeof url !== 'string') return [400, `Missing required parameter: '${at}.image_url.url'.`];
  if (/^https?:\/\//.test(url)) return undefined;
  const data = dataUrl(url);
  if (!data || !OPENAI_IMAGE_TYPES.includes(data.type) || !loadable(data.bytes)) {
    return [
      400,
      "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
    ];
  }
  return undefined;
}

function llamaPartError(part: Part, vision: boolean): [number, string] | undefined {
  if (part.type === 'text') return undefined;
  if (part.type !== 'image_url') return [400, 'unsupported content[].type'];
  if (!vision) {
    return [500, 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj'];
  }
  const url = typeof part.image_url?.url === 'string' ? part.image_url.url : '';
  if (!url.startsWith('data:')) return [400, `the double takes data URLs only (the bundled build cannot download)`];
  const pieces = url.split(',');
  if (pieces.length !== 2) return [400, 'Invalid uri-encoded base64 value'];
  if (!/^data:(image|video|audio)\//.test(pieces[0]!)) return [400, `Invalid uri format: ${pieces[0]}`];
  if (!pieces[0]!.endsWith('base64')) return [400, 'uri must be base64 encoded'];
  if (!loadable(Buffer.from(pieces[1]!, 'base64'))) return [500, 'Failed to load image or audio file'];
  return undefined;
}

/**
 * A message's content as the template renders it: a string as it is; parts joined by newlines, an image as
 * the media marker with no newline around it (`common/chat.cpp` `concat_content_parts`); and its images.
 */
export function renderedContent(content: unknown): { text: string; images: number } {
  if (!Array.isArray(content)) return { text: typeof content === 'string' ? content : '', images: 0 };
  let text = '';
  let images = 0;
  let lastWasMedia = false;
  for (const part of content as Part[]) {
    if (part.type === 'image_url') {
      text += MEDIA_MARKER;
      images += 1;
      lastWasMedia = true;
      continue;
    }
    if (!lastWasMedia && text !== '') text += '\n';
    text += String(part.text ?? '');
    lastWasMedia = false;
  }
  return { text, images };
}
