// Snapshots: the camera's latest frame kept as an observation memory with an object payload, on the
// simulator (its rendered camera) and over the in-test rosbridge (JSON base64 and CBOR byte strings), with
// a real SQLite file and its objects directory.
import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { expect } from 'chai';
import { MEMORY_STORE } from '@mira/memory-contract';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import ros2Plugin from '@mira/plugin-ros2';
import simPlugin, { CAMERA_HEIGHT, CAMERA_WIDTH, cameraFrame } from '@mira/plugin-sim';
import { eventually } from './conformance/transport-contract.js';
import { objectFile } from './conformance/memory-store-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';
import { modelRuntime, toolMessages, type ModelRuntime } from './helpers/model-runtime.js';

const IMAGE = 'sensor_msgs/msg/CompressedImage';

/** The width, height and RGB pixels of an 8-bit RGB PNG with unfiltered rows (what the simulator writes). */
function decodePng(png: Buffer): { width: number; height: number; rgb: Buffer } {
  expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(idat));
  const rgb = Buffer.alloc(width * height * 3);
  for (let row = 0; row < height; row += 1)
    rows.copy(rgb, row * width * 3, row * (1 + width * 3) + 1, (row + 1) * (1 + width * 3));
  return { width, height, rgb };
}

describe('memory snapshot on the simulator (its rendered camera, a real SQLite file)', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  const store = () => rt.app.kernel.store(MEMORY_STORE);
  const frame = () => rt.app.kernel.latestReading('camera_front');

  beforeEach(async () => {
    rt = await createTestRuntime({
      plugins: [simPlugin, memoryPlugin],
      tables: { memory: { enabled: true, database_path: 'memory.sqlite3' } },
    });
    await eventually(
      () => frame()?.image !== undefined && rt.app.kernel.latestReading('pose') !== undefined,
      5000,
      'a camera frame and a pose',
    );
  });
  afterEach(() => rt.dispose());

  it('keeps the latest frame as an observation of the entity, with when and where it was taken', async () => {
    await rt.run('memory entity add thing "Shelf"');
    const { ok, output } = await rt.run('memory snapshot ENT1 "the shelf this morning"');
    expect(ok, output.join('\n')).to.equal(true);
    expect(output).to.have.length(1);
    expect(output[0]).to.match(
      /^MEM1 observation of ENT1 "Shelf": camera_front image\/png, \d+ bytes, sha256 [0-9a-f]{12}…, taken \S+Z at \(0, 0, 0°\) in map$/,
    );
    const memory = (await store().getMemory(1))!;
    expect(memory).to.deep.include({ kind: 'observation', summary: 'the shelf this morning', predicate: null });
    expect(memory.source.kind).to.equal('sensor_observation');
    expect(memory.source.label).to.match(/^camera_front at \S+Z, \(0, 0, 0°\) in map$/);
    expect(memory.links.map((l) => `${l.entityRef} ${l.role}`)).to.deep.equal(['ENT1 subject']);
    const object = (await store().readObject(1))!;
    expect(object.mediaType).to.equal('image/png');
    // The frame the camera rendered where the robot stands, kept byte for byte.
    expect(object.bytes.equals(cameraFrame(0, 0, 0, 5))).to.equal(true);
    const { width, height } = decodePng(object.bytes);
    expect([width, height]).to.deep.equal([CAMERA_WIDTH, CAMERA_HEIGHT]);
    // Kept as a file beside the database, named by its digest, owner-only.
    const file = objectFile(rt.dir, object.sha256);
    expect(readFileSync(file).equals(object.bytes)).to.equal(true);
    expect(readFileSync(join(rt.dir, 'objects', 'DATABASE'), 'utf8')).to.equal('memory.sqlite3\n');
    expect((await rt.run('memory persistent')).output).to.include(`objects: 1, ${object.bytes.length} bytes`);
  });

  it('links a snapshot of a memory to its entities, and says when there is nothing to keep', async () => {
    await rt.run('memory entity add place "Kitchen"');
    await rt.run('memory add fact "the kitchen has a window" --link ENT1:subject');
    const linked = await rt.run('memory snapshot MEM1 --camera front');
    expect(linked.output[0]).to.match(/^MEM2 observation of ENT1 \(the entities of MEM1\): camera_front /);
    expect((await store().getMemory(2))!.summary).to.equal('snapshot from camera_front');
    for (const [line, code, says] of [
      ['memory snapshot ENT9', 'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND', 'there is no entity ENT9'],
      ['memory snapshot MEM9', 'MIRA_ERR_MEMORY_NOT_FOUND', 'there is no memory MEM9'],
      ['memory snapshot ENT1 --camera back', 'MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE', 'the cameras are camera_front'],
      ['memory snapshot save MEM1 kitchen.png', 'MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE', 'MEM1 keeps no image'],
      // Provenance cannot be forged: only the runtime writes a sensor observation.
      [
        'memory add observation "a photo" --source-kind sensor_observation',
        'MIRA_ERR_MEMORY_SOURCE_KIND_RESERVED',
        'a snapshot is what a sensor saw',
      ],
    ] as const) {
      const { ok, output } = await rt.run(line);
      expect(ok, line).to.equal(false);
      expect(output.join('\n'), line).to.contain(code).and.to.contain(says);
    }
    expect((await store().info()).memories).to.equal(2);
  });

  it('saves a snapshot to a file, verified, and never over an existing file or a database', async () => {
    await rt.run('memory entity add thing "Shelf"');
    await rt.run('memory snapshot ENT1');
    const object = (await store().readObject(1))!;
    const saved = await rt.run('memory snapshot save MEM1 shelf.png');
    expect(saved.output).to.deep.equal([
      `saved MEM1's image/png (${object.bytes.length} bytes, sha256 verified) to ${join(rt.dir, 'shelf.png')}`,
    ]);
    expect(readFileSync(join(rt.dir, 'shelf.png')).equals(object.bytes)).to.equal(true);
    writeFileSync(join(rt.dir, 'other.png'), 'mine');
    expect((await rt.run('memory snapshot save MEM1 other.png')).output.join('\n')).to.contain('MIRA_ERR_FILE_EXISTS');
    expect(readFileSync(join(rt.dir, 'other.png'), 'utf8')).to.equal('mine');
    expect((await rt.run('memory snapshot save MEM1 memory.sqlite3 --force')).output.join('\n')).to.contain(
      'MIRA_ERR_FILE_IS_STORE',
    );
    // Nothing is written inside the objects directory, --force or not, by name or through a link.
    const file = objectFile(rt.dir, object.sha256);
    const objects = join(rt.dir, 'objects');
    symlinkSync(objects, join(rt.dir, 'link-to-objects'));
    const listing = () => readdirSync(objects, { recursive: true }).map(String).sort();
    const before = listing();
    for (const target of [
      `${file} --force`,
      'objects/DATABASE --force',
      'objects/new.png',
      'objects/sha256/new.png --force',
      'link-to-objects/DATABASE --force',
    ]) {
      const { ok, output } = await rt.run(`memory snapshot save MEM1 ${target}`);
      expect(ok, target).to.equal(false);
      expect(output.join('\n'), target).to.contain('MIRA_ERR_MEMORY_SNAPSHOT_INTO_OBJECTS');
    }
    expect(listing()).to.deep.equal(before);
    expect(readFileSync(join(objects, 'DATABASE'), 'utf8')).to.equal('memory.sqlite3\n');
    // A damaged object is refused, not saved.
    writeFileSync(file, Buffer.concat([object.bytes.subarray(0, 20), Buffer.from('!'), object.bytes.subarray(21)]));
    const damaged = await rt.run('memory snapshot save MEM1 damaged.png');
    expect(damaged.output.join('\n')).to.contain('MIRA_ERR_MEMORY_OBJECT_CORRUPT');
    expect(existsSync(join(rt.dir, 'damaged.png'))).to.equal(false);
  });

  it('renders what the robot faces: turning shows another wall', async () => {
    const east = decodePng(cameraFrame(0, 0, 0, 5)).rgb;
    const north = decodePng(cameraFrame(0, 0, Math.PI / 2, 5)).rgb;
    const middle = (rgb: Buffer) =>
      rgb.subarray(((CAMERA_HEIGHT / 2) * CAMERA_WIDTH + CAMERA_WIDTH / 2) * 3).subarray(0, 3);
    expect([...middle(east)]).not.to.deep.equal([...middle(north)]);
    // Nearer the wall, the wall fills more of the frame.
    const wallRows = (rgb: Buffer) => {
      let rows = 0;
      for (let row = 0; row < CAMERA_HEIGHT; row += 1) {
        const at = (row * CAMERA_WIDTH + CAMERA_WIDTH / 2) * 3;
        if (rgb[at] === middle(rgb)[0] && rgb[at + 1] === middle(rgb)[1]) rows += 1;
      }
      return rows;
    };
    expect(wallRows(decodePng(cameraFrame(4, 0, 0, 5)).rgb)).to.be.greaterThan(wallRows(east));
  });
});

describe('memory snapshot over rosbridge (the in-test bridge, JSON and CBOR)', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 7), Buffer.from([0xff, 0xd9])]);

  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    bridge.declareTopic('/camera/front/image_raw/compressed', IMAGE);
    bridge.declareTopic('/camera/back/image_raw/compressed', IMAGE);
    rt = await createTestRuntime({
      plugins: [ros2Plugin, memoryPlugin],
      tables: {
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          sensors: [
            { id: 'camera_front', topic: '/camera/front/image_raw/compressed', type: IMAGE },
            { id: 'camera_back', topic: '/camera/back/image_raw/compressed', type: IMAGE, compression: 'cbor' },
          ],
        },
      },
    });
    await eventually(() => bridge.subscribers('/camera/back/image_raw/compressed') > 0, 5000, 'the subscriptions');
  });
  afterEach(async () => {
    await rt.dispose();
    await bridge.close();
  });

  it('keeps a JPEG sent as base64 (JSON) and as a byte string (CBOR), byte for byte', async () => {
    const header = { stamp: { sec: 0, nanosec: 0 }, frame_id: 'camera_front_optical_frame' };
    // Cameras publish all the time, as image_transport's do.
    const front = bridge.repeat(
      '/camera/front/image_raw/compressed',
      { header, format: 'rgb8; jpeg compressed bgr8', data: jpeg },
      100,
    );
    const back = bridge.repeat('/camera/back/image_raw/compressed', { header, format: 'jpeg', data: jpeg }, 100);
    await eventually(
      () => ['camera_front', 'camera_back'].every((id) => rt.app.kernel.latestReading(id)?.image !== undefined),
      5000,
      'both frames',
    );
    front.stop();
    back.stop();
    // The model reads a description, never the bytes.
    expect(rt.app.kernel.latestReading('camera_front')!.value).to.deep.equal({
      format: 'jpeg',
      bytes: jpeg.length,
      frame: 'camera_front_optical_frame',
    });
    await rt.run('memory entity add thing "Door"');
    // Two cameras: which one must be said.
    expect((await rt.run('memory snapshot ENT1')).output.join('\n')).to.contain(
      'has 2 cameras (camera_front, camera_back)',
    );
    for (const camera of ['front', 'back']) {
      const { ok, output } = await rt.run(`memory snapshot ENT1 --camera ${camera}`);
      expect(ok, output.join('\n')).to.equal(true);
      expect(output[0]).to.match(
        new RegExp(`^MEM\\d observation of ENT1 "Door": camera_${camera} image/jpeg, ${jpeg.length} bytes`),
      );
    }
    const store = rt.app.kernel.store(MEMORY_STORE);
    for (const id of [1, 2]) expect((await store.readObject(id))!.bytes.equals(jpeg)).to.equal(true);
    // The same bytes twice: one object.
    expect(await store.objectUsage()).to.deep.equal({ objects: 1, bytes: jpeg.length });
    expect(bridge.logged).to.deep.equal([]);
  });

  it('keeps no frame whose bytes are not what its format says', async () => {
    const front = bridge.repeat('/camera/front/image_raw/compressed', { format: 'png', data: jpeg }, 100);
    await eventually(() => rt.app.kernel.latestReading('camera_front') !== undefined, 5000, 'the frame');
    front.stop();
    expect(rt.app.kernel.latestReading('camera_front')!.image).to.equal(undefined);
    await rt.run('memory entity add thing "Door"');
    const { ok, output } = await rt.run('memory snapshot ENT1 --camera front');
    expect(ok).to.equal(false);
    expect(output.join('\n'))
      .to.contain('MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE')
      .and.to.contain('has sent no JPEG or PNG frame');
  });
});

describe('take_snapshot: the model keeps a snapshot when the operator asks (scripted model, the simulator)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;

  beforeEach(async () => {
    // The simulator comes after the memory tools here: the tool is offered once every plugin is set up.
    m = await modelRuntime({ plugins: [simPlugin] });
    await eventually(() => m.rt.app.kernel.latestReading('camera_front')?.image !== undefined, 5000, 'a frame');
    await m.say('memory entity add thing "Shelf"');
    await m.say('memory entity add thing "Shelf Two"');
    await m.say('memory alias add ENT2 "the shelf"');
    await m.say('memory alias add ENT1 "the shelf"');
  });
  afterEach(() => m.dispose());

  /** One operator turn in which the model calls take_snapshot with `args`; the JSON result it received. */
  async function ask(utterance: string, args: Record<string, unknown>) {
    const first = m.server.requests.length;
    m.server.push({ toolCalls: [{ name: 'take_snapshot', arguments: args }] }, { text: 'Done.' });
    const { output } = await m.say(utterance);
    return { output, result: JSON.parse(toolMessages(m.server, first + 1)[0]!) as Record<string, unknown> };
  }

  it('keeps the frame as an observation of the entity the operator names, with the caption they said', async () => {
    const { output, result } = await ask('Take a picture of Shelf Two: the top row is empty.', {
      subject: 'Shelf Two',
      caption: 'the top row is empty',
      camera: null,
    });
    expect(result).to.deep.equal({ status: 'applied', memory_id: 'MEM1', entity_id: 'ENT2', camera: 'camera_front' });
    expect(output[0]).to.equal('[take_snapshot] MEM1 of ENT2 "Shelf Two" (camera_front)');
    const memory = (await m.store().getMemory(1))!;
    expect(memory).to.deep.include({ kind: 'observation', summary: 'the top row is empty' });
    expect(memory.source.kind).to.equal('sensor_observation');
    expect((await m.store().readObject(1))!.mediaType).to.equal('image/png');
    // One per episode, as remember.
    expect(m.server.requests[0]!.toolNames).to.include('take_snapshot');
  });

  it('refuses what the operator did not say, a name it cannot resolve exactly, and keeps nothing', async () => {
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['What is on the table?', { subject: 'Shelf Two', caption: null, camera: null }, 'subject_not_in_utterance'],
      ['Take a picture of the shelf.', { subject: 'the shelf', caption: null, camera: null }, 'subject_ambiguous'],
      [
        'Take a picture of the cupboard.',
        { subject: 'the cupboard', caption: null, camera: null },
        'subject_not_found',
      ],
      [
        'Take a picture of Shelf Two.',
        { subject: 'Shelf Two', caption: 'it looks dusty', camera: null },
        'caption_not_in_utterance',
      ],
      ['Take a picture of Shelf Two.', { subject: 'Shelf Two', caption: null, camera: 'back' }, 'no_frame'],
    ];
    for (const [utterance, args, reason] of refusals) {
      const { result } = await ask(utterance, args);
      expect(result.status, reason).to.equal('rejected');
      expect(result.reason, JSON.stringify(result)).to.equal(reason);
      if (reason === 'subject_ambiguous') expect(result.candidate_ids).to.deep.equal(['ENT1', 'ENT2']);
    }
    expect((await m.store().info()).memories).to.equal(0);
  });
});
