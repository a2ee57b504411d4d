import { expect } from 'chai';
import jpeg from 'jpeg-js';
import { startScriptedModelServer } from '@mira/core/testing';
import { buildLlamaServer, startRealModelServer, testModel, type RealModelServer } from './llama-server.js';

// Image inputs against the real llama-server of the tier, which is built without the multimodal library
// (tools/llama-server/mtmd-absent.cpp) and so has no projector: the double without `vision` must answer the
// same requests the same way (docs/robots.md, "Looking through a camera").

const JPEG = Buffer.from(jpeg.encode({ width: 8, height: 8, data: Buffer.alloc(256, 128) }, 80).data);
const REQUESTS: ReadonlyArray<readonly [string, unknown[]]> = [
  [
    'an image in a user message',
    [
      { role: 'system', content: 'You are a robot.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[look] camera_front' },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG.toString('base64')}`, detail: 'low' } },
        ],
      },
    ],
  ],
  ['a part of an unknown type', [{ role: 'user', content: [{ type: 'video_url', video_url: { url: 'x' } }] }]],
];

async function answer(url: string, messages: unknown[]) {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages, max_tokens: 4 }),
  });
  const body = (await response.json()) as { error?: { code?: number; message?: string; type?: string } };
  return { status: response.status, error: body.error };
}

describe('image inputs: the real llama-server of the tier and the double', function () {
  this.timeout(30 * 60_000);
  let server: RealModelServer;
  before(async () => {
    const cache = buildLlamaServer();
    server = await startRealModelServer(cache, testModel(cache));
  });
  after(() => server?.stop());

  it('says it takes no images (/props modalities.vision false), as the double does', async () => {
    const props = (await (await fetch(`${server.upstream}/props`)).json()) as { modalities?: { vision?: boolean } };
    expect(props.modalities?.vision).to.equal(false);
  });

  for (const [what, messages] of REQUESTS) {
    it(`answers ${what} as the double does`, async () => {
      const double = await startScriptedModelServer([{ text: 'never played' }]);
      try {
        const [real, stand] = await Promise.all([answer(server.url, messages), answer(double.url, messages)]);
        console.log(`${what}: ${real.status} ${JSON.stringify(real.error)}`);
        expect(stand).to.deep.equal(real);
      } finally {
        await double.close();
      }
    });
  }
});
