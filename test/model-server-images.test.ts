import { expect } from 'chai';
import jpeg from 'jpeg-js';
import { countTokens, startScriptedModelServer, type ScriptedModelServer } from '@mira/core/testing';

// Image inputs (Chat Completions' `image_url` content parts) as the double takes and refuses them, each as its
// peer does: llama-server by its source (core/src/testing/content-parts.ts), OpenAI by its reference.

const JPEG = Buffer.from(jpeg.encode({ width: 8, height: 8, data: Buffer.alloc(8 * 8 * 4, 128) }, 80).data);
const dataUrl = (bytes: Buffer, type = 'image/jpeg') => `data:${type};base64,${bytes.toString('base64')}`;
const image = (url = dataUrl(JPEG), detail: string | undefined = 'low') => ({
  type: 'image_url',
  image_url: { url, ...(detail === undefined ? {} : { detail }) },
});
const text = (t: string) => ({ type: 'text', text: t });
const system = { role: 'system', content: 'You are a robot.' };
const call = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"camera":"front"}' } }],
};

async function post(server: ScriptedModelServer, messages: unknown[]) {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages }),
  });
  return { status: response.status, json: (await response.json()) as any };
}

describe('the scripted model server: image inputs', () => {
  let server: ScriptedModelServer;
  afterEach(() => server?.close());
  const start = (options = {}) =>
    startScriptedModelServer([{ text: 'ok' }, { text: 'ok' }], options).then((s) => (server = s));

  describe('as llama-server', () => {
    it('refuses any image without a multimodal projector: 500, "you may need to provide the mmproj"', async () => {
      await start();
      const { status, json } = await post(server, [system, { role: 'user', content: [text('See'), image()] }]);
      expect(status).to.equal(500);
      expect(json.error).to.deep.equal({
        code: 500,
        message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
        type: 'server_error',
      });
      const props = (await (await fetch(server.url.replace(/\/v1$/, '/props'))).json()) as any;
      expect(props.modalities.vision).to.equal(false);
    });

    it('takes an image in a user message with --mmproj, as a media marker and its tokens in the prompt', async () => {
      await start({ vision: true });
      const { status } = await post(server, [system, { role: 'user', content: [text('See'), image()] }]);
      expect(status).to.equal(200);
      const recorded = server.requests[0]!;
      // common/chat.cpp concat_content_parts: no newline before or after a media marker.
      expect(recorded.prompt).to.contain('<|im_start|>user\nSee<__media__><|im_end|>');
      expect(recorded.promptTokens).to.equal(countTokens(recorded.prompt) + 256);
    });

    it('takes one in a tool message too (it reads every role but an assistant without content)', async () => {
      await start({ vision: true });
      const { status } = await post(server, [
        system,
        { role: 'user', content: 'Look' },
        call,
        { role: 'tool', tool_call_id: 'call_1', content: [text('{}'), image()] },
      ]);
      expect(status).to.equal(200);
    });

    for (const [what, url, status, message] of [
      ['two commas', 'data:image/jpeg;base64,AA,BB', 400, 'Invalid uri-encoded base64 value'],
      [
        'a text type',
        `data:text/plain;base64,${JPEG.toString('base64')}`,
        400,
        'Invalid uri format: data:text/plain;base64',
      ],
      ['no base64', `data:image/jpeg,${JPEG.toString('base64')}`, 400, 'uri must be base64 encoded'],
      ['bytes no loader reads', dataUrl(Buffer.from('not an image at all')), 500, 'Failed to load image or audio file'],
      ['a JPEG cut short', dataUrl(JPEG.subarray(0, JPEG.length - 10)), 500, 'Failed to load image or audio file'],
    ] as const) {
      it(`refuses a data URL with ${what} as it does (${status})`, async () => {
        await start({ vision: true });
        const response = await post(server, [system, { role: 'user', content: [image(url)] }]);
        expect(response.status).to.equal(status);
        expect(response.json.error.message).to.equal(message);
      });
    }

    it('refuses a part type other than text and image_url with 400', async () => {
      await start({ vision: true });
      const response = await post(server, [system, { role: 'user', content: [{ type: 'video_url' }] }]);
      expect([response.status, response.json.error.message]).to.deep.equal([400, 'unsupported content[].type']);
    });
  });

  describe('as OpenAI', () => {
    it('takes an image in a user message, after tool results', async () => {
      await start({ flavor: 'openai' });
      const { status } = await post(server, [
        system,
        { role: 'user', content: 'Look' },
        call,
        { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shown"}' },
        { role: 'user', content: [text('[look] front'), image()] },
      ]);
      expect(status).to.equal(200);
    });

    it('refuses an image in a tool message: only user messages may hold one', async () => {
      await start({ flavor: 'openai' });
      const { status, json } = await post(server, [
        system,
        { role: 'user', content: 'Look' },
        call,
        { role: 'tool', tool_call_id: 'call_1', content: [text('{}'), image()] },
      ]);
      expect(status).to.equal(400);
      expect(json.error.message).to.equal(
        "Invalid 'messages[3]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.",
      );
      expect(json.error.type).to.equal('invalid_request_error');
    });

    it('refuses an image in a system message', async () => {
      await start({ flavor: 'openai' });
      const { status } = await post(server, [
        { role: 'system', content: [image()] },
        { role: 'user', content: 'Hi' },
      ]);
      expect(status).to.equal(400);
    });

    it('refuses a detail other than auto, low and high', async () => {
      await start({ flavor: 'openai' });
      const { status, json } = await post(server, [{ role: 'user', content: [image(undefined, 'medium')] }]);
      expect(status).to.equal(400);
      expect(json.error.message).to.equal("Invalid value: 'medium'. Supported values are: 'auto', 'low', and 'high'.");
    });

    it('refuses a data URL that is no PNG, JPEG, GIF or WEBP image', async () => {
      await start({ flavor: 'openai' });
      for (const url of [dataUrl(Buffer.from('plain words')), dataUrl(JPEG, 'image/tiff')]) {
        const { status, json } = await post(server, [{ role: 'user', content: [image(url)] }]);
        expect(status).to.equal(400);
        expect(json.error.message).to.match(/^You uploaded an unsupported image/);
      }
    });
  });
});
