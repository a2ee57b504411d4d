import { expect } from 'chai';
import jpeg from 'jpeg-js';
import type { MiraPlugin } from '@mira/core';
import simPlugin, { encodePng, type SimTransport } from '@mira/plugin-sim';
import { LOOK_MAX_BYTES, LOOK_MAX_SIDE_PX, LOOK_QUALITIES, frameForModel } from '@mira/robot';
import { withoutGrounding, type RecordedRequest, type ScriptedServerOptions } from '@mira/core/testing';
import { modelRuntime, toolMessages, type ModelRuntime } from './helpers/model-runtime.js';

// `look` through the console on the simulated profile: the model asks for a camera's frame, and the next
// request carries it as an image input (a user message's image_url part) within the budget, or the tool says
// why not.

const SIM = { tick_ms: 0, read_timeout_ms: 1 };
const CAMERA_TOPIC = '/camera/front/image_raw/compressed';
const look = (camera = 'camera_front') => ({ toolCalls: [{ name: 'look', arguments: { camera } }] });

interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail: string };
}

/** The image parts of a request's messages, with the role of the message holding each. */
function imageParts(request: RecordedRequest): Array<{ role: string; index: number; part: ImagePart }> {
  return request.body.messages.flatMap((message, index) =>
    Array.isArray(message.content)
      ? (message.content as Array<{ type: string }>)
          .filter((part) => part.type === 'image_url')
          .map((part) => ({ role: message.role, index, part: part as ImagePart }))
      : [],
  );
}

/** The JPEG a data URL holds, decoded (throws when it is not one). */
function decodedJpeg(url: string): { width: number; height: number; bytes: number } {
  const match = /^data:image\/jpeg;base64,([A-Za-z0-9+/]+=*)$/.exec(url);
  expect(match, url.slice(0, 40)).to.not.equal(null);
  const bytes = Buffer.from(match![1]!, 'base64');
  const { width, height } = jpeg.decode(bytes, { useTArray: true });
  return { width, height, bytes: bytes.length };
}

describe('look (a camera frame for the model)', () => {
  let m: ModelRuntime;
  let sim: SimTransport;
  afterEach(() => m?.dispose());

  async function start(vision: boolean, server: ScriptedServerOptions = { vision }, table: object = SIM) {
    m = await modelRuntime({
      plugins: [simPlugin],
      tables: { sim: { ...SIM, ...table } },
      openai: { vision },
      server,
    });
    sim = m.rt.instance(simPlugin).transport;
  }

  for (const flavor of ['llama-server', 'openai'] as const) {
    it(`shows the frame in the next request, as a user message's image_url part after the results (${flavor})`, async () => {
      await start(true, { vision: true, flavor });
      m.server.push(look(), { text: 'I see a wall ahead.' }, { text: 'Nothing new.' });
      const said = await m.say('What do you see?');
      expect(said.ok, said.output.join('\n')).to.equal(true);
      expect(said.output).to.include('Mira: I see a wall ahead.');
      expect(m.server.requests.map((r) => r.status)).to.deep.equal([200, 200]);

      const [first, second] = m.server.requests;
      expect(imageParts(first!)).to.deep.equal([]);
      const [result] = toolMessages(m.server, 1);
      const parsed = JSON.parse(result!);
      expect(parsed).to.include({ status: 'shown', camera: 'camera_front', width: 96, height: 64 });
      expect(Object.keys(parsed)).to.deep.equal(['status', 'camera', 'width', 'height', 'bytes', 'age_ms', 'taken_at']);

      const messages = second!.body.messages;
      const images = imageParts(second!);
      expect(images).to.have.length(1);
      const { role, index, part } = images[0]!;
      // After the tool result, at the tail: the last message of the request.
      expect([role, index]).to.deep.equal(['user', messages.length - 1]);
      expect(messages[index - 1]!.role).to.equal('tool');
      expect(typeof messages[index - 1]!.content).to.equal('string');
      expect(part.image_url.detail).to.equal('low');
      const frame = decodedJpeg(part.image_url.url);
      expect(frame).to.deep.equal({ width: 96, height: 64, bytes: parsed.bytes });
      expect(frame.bytes).to.be.at.most(LOOK_MAX_BYTES);
      const text = (messages[index]!.content as unknown as Array<{ type: string; text?: string }>)[0]!;
      expect(text.type).to.equal('text');
      expect(withoutGrounding(text.text!)).to.match(/^\[look\] camera_front 96×64, \d+ bytes, \d+ ms old$/);

      // The next episode's request carries no image: working memory keeps the text only.
      await m.say('And now?');
      expect(imageParts(m.server.requests[2]!)).to.deep.equal([]);
      expect(JSON.stringify(m.server.requests[2]!.body.messages)).to.not.contain('image_url');
    });
  }

  it('refuses when the model sees no images ([openai] vision = false), and sends none', async () => {
    await start(false);
    m.server.push(look(), { text: 'I cannot see.' });
    const said = await m.say('What do you see?');
    expect(said.output).to.include('[look] rejected model_sees_no_images');
    expect(JSON.parse(toolMessages(m.server, 1)[0]!)).to.deep.equal({
      status: 'rejected',
      reason: 'model_sees_no_images',
      error:
        "this robot's model is not shown images (the profile's model settings say so); nothing was taken: answer from the sensor readings",
    });
    expect(m.server.requests.flatMap(imageParts)).to.deep.equal([]);
  });

  it("drops a tool's image when the model sees none, and tells the tool whether it does", async () => {
    const told: Array<boolean | undefined> = [];
    const picture: MiraPlugin = {
      name: 'picture',
      version: '1.0.0',
      setup: (k) =>
        k.tools.register({
          name: 'picture',
          description: 'Shows a picture.',
          kind: 'acquisition',
          origins: ['operator'],
          parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
          run: async (_args, context) => {
            told.push(context.seesImages);
            const bytes = jpeg.encode({ width: 4, height: 4, data: Buffer.alloc(64, 90) }, 80).data;
            return { content: '{"status":"shown"}', display: 'a picture', image: { mediaType: 'image/jpeg', bytes } };
          },
        }),
    };
    for (const vision of [false, true]) {
      m = await modelRuntime({ plugins: [picture], openai: { vision }, server: { vision } });
      m.server.push({ toolCalls: [{ name: 'picture', arguments: {} }] }, { text: 'Seen.' });
      expect((await m.say('Show me.')).ok).to.equal(true);
      expect(imageParts(m.server.requests[1]!).map(({ role }) => role)).to.deep.equal(vision ? ['user'] : []);
      await m.dispose();
    }
    expect(told).to.deep.equal([false, true]);
  });

  it('refuses an unknown camera, naming the cameras', async () => {
    await start(true);
    m.server.push(look('battery'), { text: 'No such camera.' });
    await m.say('Look through the battery.');
    expect(JSON.parse(toolMessages(m.server, 1)[0]!)).to.deep.equal({
      status: 'rejected',
      reason: 'unknown_camera',
      error: 'no camera battery; the cameras are camera_front',
    });
    expect(m.server.requests.flatMap(imageParts)).to.deep.equal([]);
  });

  it('refuses a stale frame when no fresh one comes within the wait', async () => {
    await start(true);
    // The frame published at start is 10 s old; the camera's frames are stale after 5 s.
    m.clock.advance(10_000);
    m.server.push(look(), { text: 'The camera is silent.' });
    await m.say('What do you see?');
    const result = JSON.parse(toolMessages(m.server, 1)[0]!);
    expect(result).to.deep.equal({
      status: 'rejected',
      reason: 'no_frame',
      error: `no fresh frame from camera_front on ${CAMERA_TOPIC} within 1 ms (its last is 10000 ms old); is the camera running?`,
    });
    expect(m.server.requests.flatMap(imageParts)).to.deep.equal([]);
  });

  it('waits for a fresh frame when the latest is stale, and shows that one', async () => {
    await start(true, { vision: true }, { read_timeout_ms: 5000 });
    m.clock.advance(10_000);
    const fresh = encodePng(40, 30, Buffer.alloc(40 * 30 * 3, 200));
    const timer = setTimeout(
      () => void sim.publish(CAMERA_TOPIC, 'sensor_msgs/msg/CompressedImage', { format: 'png', data: fresh }),
      50,
    );
    m.server.push(look(), { text: 'Grey.' });
    await m.say('What do you see?');
    clearTimeout(timer);
    expect(JSON.parse(toolMessages(m.server, 1)[0]!)).to.include({ status: 'shown', width: 40, height: 30, age_ms: 0 });
    expect(m.server.requests.flatMap(imageParts)).to.have.length(1);
  });

  it('refuses a frame that is not a JPEG or PNG image', async () => {
    await start(true);
    await sim.publish(CAMERA_TOPIC, 'sensor_msgs/msg/CompressedImage', { format: 'rgb8; raw', data: [1, 2, 3] });
    m.server.push(look(), { text: 'Unreadable.' });
    await m.say('What do you see?');
    expect(JSON.parse(toolMessages(m.server, 1)[0]!)).to.include({ status: 'rejected', reason: 'unreadable_frame' });
    expect(m.server.requests.flatMap(imageParts)).to.deep.equal([]);
  });

  /**
   * A frame of `width` × `height` whose every `block` × `block` pixels share a random colour: noise that
   * survives shrinking by `block`, the hardest picture to compress, so the byte budget is met only by lowering
   * the quality. RGB rows, or RGBA with `alpha`.
   */
  function blockNoise(width: number, height: number, block: number, alpha: boolean): Buffer {
    const channels = alpha ? 4 : 3;
    const data = Buffer.alloc(width * height * channels, 255);
    let seed = 7;
    const colours = new Map<number, number[]>();
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const key = Math.floor(y / block) * width + Math.floor(x / block);
        let colour = colours.get(key);
        if (!colour) {
          colour = [0, 1, 2].map(() => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
          colours.set(key, colour);
        }
        data.set(colour, (y * width + x) * channels);
      }
    }
    return data;
  }

  async function looked(format: string, data: Uint8Array) {
    await sim.publish(CAMERA_TOPIC, 'sensor_msgs/msg/CompressedImage', { format, data });
    m.server.push(look(), { text: 'Noise.' });
    await m.say('What do you see?');
    const result = JSON.parse(toolMessages(m.server, 1)[0]!);
    const frame = decodedJpeg(imageParts(m.server.requests[1]!)[0]!.part.image_url.url);
    return { result, frame };
  }

  it('shrinks a 4000×3000 PNG frame to the pixel and byte budget', async () => {
    await start(true);
    const png = encodePng(4000, 3000, blockNoise(4000, 3000, 8, false));
    const { result, frame } = await looked('png', png);
    expect(result).to.include({ status: 'shown', width: LOOK_MAX_SIDE_PX, height: 384 });
    expect(frame).to.deep.equal({ width: 512, height: 384, bytes: result.bytes });
    expect(frame.bytes).to.be.at.most(LOOK_MAX_BYTES);
  });

  it('shrinks a 1600×1200 JPEG frame of noise, lowering the quality until it fits the byte budget', async () => {
    await start(true);
    const source = jpeg.encode({ width: 1600, height: 1200, data: blockNoise(1600, 1200, 3, true) }, 90).data;
    expect(source.length).to.be.above(LOOK_MAX_BYTES * 4);
    const { result, frame } = await looked('jpeg', source);
    expect(frame).to.deep.equal({ width: 512, height: 384, bytes: result.bytes });
    expect(frame.bytes).to.be.at.most(LOOK_MAX_BYTES);
    // At the best quality it does not fit: the budget was met by lowering it.
    expect(frameForModel({ mediaType: 'image/jpeg', bytes: source }).quality).to.be.below(LOOK_QUALITIES[0]);
  });

  it('is refused by a llama-server without a projector; the provider said so at start', async () => {
    await start(true, { vision: false });
    m.server.push(look(), { text: 'never played' });
    const said = await m.say('What do you see?');
    expect(said.ok).to.equal(false);
    expect(m.server.requests[1]!.status).to.equal(500);
    expect(m.rt.logs.join('\n')).to.contain('[openai] vision is on, but the model server at');
  });
});

describe("the robot's senses through the model (it looks, lists, reads and echoes)", () => {
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  /** The calls of a request's assistant messages, each with the tool message that answers it. */
  function answeredCalls(request: RecordedRequest) {
    const messages = request.body.messages;
    type Call = { id: string; type: string; function: { name: string; arguments: string } };
    const calls = messages.flatMap((x) =>
      x.role === 'assistant' ? ((x as { tool_calls?: Call[] }).tool_calls ?? []) : [],
    );
    return calls.map((c) => ({
      call: c,
      answer: messages.find((x) => x.role === 'tool' && (x as { tool_call_id?: string }).tool_call_id === c.id),
    }));
  }

  it('sends every request in the shapes Chat Completions documents, each result answering its call', async () => {
    m = await modelRuntime({
      plugins: [simPlugin],
      // A simulation that steps (on the runtime's clock), so the echo hears the next odometry message.
      tables: { sim: { ...SIM, tick_ms: 20 } },
      openai: { vision: true },
      server: { vision: true },
    });
    const call = (name: string, args: object) => ({ toolCalls: [{ name, arguments: args }] });
    // Two acquisitions an episode: a look and the graph, then a node's parameters and a topic's message.
    m.server.push(look(), call('list_ros_graph', { kind: 'topics', filter: null }), { text: 'A wall ahead.' });
    m.server.push(
      call('get_ros_parameters', { node: '/sim_robot', filter: 'room' }),
      call('echo_ros_topic', { topic: '/odom', wait_s: 3 }),
      { text: 'The room is 10 m wide; I am at the origin.' },
    );
    const first = await m.say('Look around and tell me which topics you have.');
    expect(first.ok, first.output.join('\n')).to.equal(true);
    // The simulator steps on the runtime's clock: it moves on while the echo waits for the next message.
    const saying = m.say('And your room, and where you are?');
    let done = false;
    void saying.finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      m.clock.advance(100);
    }
    const second = await saying;
    expect(second.ok, second.output.join('\n')).to.equal(true);
    expect(m.server.requests.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);

    for (const index of [2, 5]) {
      const request = m.server.requests[index]!;
      const messages = request.body.messages;
      // One system message, first; each assistant call answered by a tool message of text.
      expect(messages.filter((x) => x.role === 'system')).to.have.length(1);
      expect(messages[0]!.role).to.equal('system');
      const answered = answeredCalls(request);
      expect(answered).to.have.length(2);
      for (const { call: c, answer } of answered) {
        expect(c.type).to.equal('function');
        expect(typeof c.function.arguments).to.equal('string');
        expect(() => JSON.parse(c.function.arguments), c.function.name).to.not.throw();
        expect(answer, c.function.name).to.not.equal(undefined);
        expect(typeof answer!.content, c.function.name).to.equal('string');
      }
      // Images only in a user message (a tool message's content is text), and only in the episode that looked.
      for (const { role } of imageParts(request)) expect(role).to.equal('user');
      expect(imageParts(request)).to.have.length(index === 2 ? 1 : 0);
    }
    const [shown, graph] = toolMessages(m.server, 2).map((content) => JSON.parse(content));
    expect(shown).to.include({ status: 'shown', camera: 'camera_front' });
    expect(graph.items).to.deep.include({ name: '/odom', type: 'nav_msgs/msg/Odometry' });
    const [parameters, echoed] = toolMessages(m.server, 5).map((content) => JSON.parse(content));
    expect(parameters).to.deep.equal({
      node: '/sim_robot',
      total: 1,
      parameters: [{ name: 'room_half_size_m', type: 'double', value: 5 }],
    });
    expect(echoed.topic).to.equal('/odom');
    expect(echoed.message.pose).to.be.an('object');
  });
});
