// The rules under object payloads and snapshots, file by file: what an object may be (objects.ts), how the
// SQLite store keeps its files (object-files.ts), and how a snapshot picks its camera, its freshness and the
// pose it records (snapshots.ts) — on real SQLite files, with sensor readings as a transport delivers them.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import type { MiraError, SensorDefinition, SensorReading } from '@mira/core';
import {
  DEFAULT_MAX_OBJECT_BYTES,
  DEFAULT_OBJECT_GRACE_MS,
  SHA256_HEX,
  cameraSensor,
  poseOfReading,
  prepareObject,
  sha256Hex,
  sniffMediaType,
  takeSnapshot,
  verifiedObject,
} from '@mira/memory-contract';
import { ObjectFiles, SqliteMemoryStore, type WriteSeam } from '@mira/plugin-memory';
import { objectFile, pngBytes, rejection } from './conformance/memory-store-contract.js';

const thrown = (fn: () => unknown): MiraError => {
  try {
    fn();
  } catch (error) {
    return error as MiraError;
  }
  throw new Error('expected it to throw');
};

describe('object payloads: what an object may be', () => {
  it('takes an image up to the cap exactly, and refuses one byte more', () => {
    expect(prepareObject({ bytes: pngBytes(1000), mediaType: 'image/png' }, 1000).bytes.length).to.equal(1000);
    const over = thrown(() => prepareObject({ bytes: pngBytes(1001), mediaType: 'image/png' }, 1000));
    expect(over.message).to.equal(
      'MIRA_ERR_MEMORY_OBJECT_INVALID: the object is 1001 bytes, over the cap of 1000 ([memory] max_object_bytes); nothing was written',
    );
    expect(DEFAULT_MAX_OBJECT_BYTES).to.equal(4 * 1024 * 1024);
    expect(DEFAULT_OBJECT_GRACE_MS).to.equal(10 * 60 * 1000);
  });

  it('recognises an image by its whole signature, and names the types it keeps', () => {
    const png = pngBytes(100);
    expect(sniffMediaType(png)).to.equal('image/png');
    const almost = Buffer.from(png);
    almost[7] = 0x00; // the last signature byte
    expect(sniffMediaType(almost)).to.equal(undefined);
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).to.equal('image/jpeg');
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0x00]))).to.equal(undefined);
    expect(thrown(() => prepareObject({ bytes: png, mediaType: 'image/gif' }, 1e6)).message).to.equal(
      'MIRA_ERR_MEMORY_OBJECT_INVALID: the media type "image/gif" is not one Mira keeps (image/jpeg, image/png); nothing was written',
    );
  });

  it('names objects by a whole lower-case hex SHA-256, and says which digest the changed bytes have', () => {
    const digest = sha256Hex(Buffer.from('x'));
    expect(SHA256_HEX.test(digest)).to.equal(true);
    for (const bad of [`${digest}0`, `0${digest}`, digest.toUpperCase(), digest.slice(1)])
      expect(SHA256_HEX.test(bad), bad).to.equal(false);
    const bytes = Buffer.from('hello');
    expect(verifiedObject(bytes, sha256Hex(bytes), 'here')).to.equal(bytes);
    const other = sha256Hex(Buffer.from('other'));
    expect(thrown(() => verifiedObject(bytes, other, 'the file f')).message).to.equal(
      `MIRA_ERR_MEMORY_OBJECT_CORRUPT: object sha256:${other} (the file f) has changed: its bytes hash to ${sha256Hex(bytes).slice(0, 12)}…; it was not returned`,
    );
  });
});

describe("object payloads: the SQLite store's files", () => {
  let dir: string;
  let store: SqliteMemoryStore;
  const keep = (s: SqliteMemoryStore, bytes: Buffer) =>
    s.createMemory({
      kind: 'observation',
      summary: 'a view',
      sourceKind: 'sensor_observation',
      object: { bytes, mediaType: 'image/png' },
    });
  const age = (path: string, ms: number) => {
    const then = (Date.now() - ms) / 1000;
    utimesSync(path, then, then);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-objects-'));
    store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps them owner-only, and the directory names the database it belongs to', async () => {
    const memory = await keep(store, pngBytes(500));
    const sha = memory.payloads[1]!.sha256!;
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(join(dir, 'objects'))).to.equal(0o700);
    expect(mode(join(dir, 'objects', 'sha256', sha.slice(0, 2)))).to.equal(0o700);
    expect(mode(objectFile(dir, sha))).to.equal(0o600);
    expect(mode(join(dir, 'objects', 'DATABASE'))).to.equal(0o600);
    expect(readFileSync(join(dir, 'objects', 'DATABASE'), 'utf8')).to.equal('memory.sqlite3\n');
    // No temporary file is left behind.
    expect(readdirSync(join(dir, 'objects'), { recursive: true }).map(String).sort()).to.deep.equal(
      ['DATABASE', 'sha256', join('sha256', sha.slice(0, 2)), join('sha256', sha.slice(0, 2), sha.slice(2))].sort(),
    );
    expect(readFileSync(objectFile(dir, sha)).equals(pngBytes(500))).to.equal(true);
  });

  it("never lets a second database in the directory write or collect the first one's objects", async () => {
    await keep(store, pngBytes(500));
    const other = SqliteMemoryStore.open(join(dir, 'other.sqlite3'));
    try {
      const refused = await rejection(keep(other, pngBytes(600)));
      expect(refused.message).to.equal(
        `MIRA_ERR_MEMORY_OBJECTS_SHARED: ${join(dir, 'objects')} holds the objects of memory.sqlite3, not of other.sqlite3; give each memory database a directory of its own`,
      );
      expect((await rejection(other.collectObjects(0))).code).to.equal('MIRA_ERR_MEMORY_OBJECTS_SHARED');
      expect((await other.info()).memories).to.equal(0);
    } finally {
      await other.close();
    }
    expect(await store.objectUsage()).to.deep.equal({ objects: 1, bytes: 500 });
  });

  it('counts and collects only its own objects: files of another shape are left alone', async () => {
    await keep(store, pngBytes(500));
    const top = join(dir, 'objects', 'sha256');
    writeFileSync(join(top, 'README'), 'not an object');
    mkdirSync(join(top, 'ABC'));
    writeFileSync(join(top, 'ABC', 'x'.repeat(62)), 'not an object');
    mkdirSync(join(top, 'ff'), { recursive: true });
    writeFileSync(join(top, 'ff', 'short'), 'not an object');
    writeFileSync(join(top, 'ff', `${'a'.repeat(62)}.bak`), 'not an object');
    expect(await store.objectUsage()).to.deep.equal({ objects: 1, bytes: 500 });
    expect(await store.collectObjects(0)).to.deep.equal({ objects: 0, bytes: 0 });
    expect(readFileSync(join(top, 'ff', 'short'), 'utf8')).to.equal('not an object');
  });

  it('removes its own unfinished temporary files after the grace period, not before, and nothing else', async () => {
    const memory = await keep(store, pngBytes(500));
    const sha = memory.payloads[1]!.sha256!;
    const shard = join(dir, 'objects', 'sha256', sha.slice(0, 2));
    const own = (name: string) => `.mira-tmp-${name}-${'0a'.repeat(6)}`;
    // Left by a crash: Mira's names, in the shard directory, beside the marker, and an earlier build's in tmp/.
    const old = [
      join(shard, own('b'.repeat(62))),
      join(dir, 'objects', own('DATABASE')),
      join(dir, 'objects', 'tmp', `${'c'.repeat(64)}.${'1f'.repeat(6)}`),
    ];
    mkdirSync(join(dir, 'objects', 'tmp'), { recursive: true });
    for (const path of old) writeFileSync(path, 'x');
    const fresh = join(shard, own('d'.repeat(62)));
    writeFileSync(fresh, 'x');
    for (const path of [...old, fresh]) age(path, path === fresh ? 0 : DEFAULT_OBJECT_GRACE_MS + 1000);
    await store.collectObjects();
    for (const path of old) expect(existsSync(path), path).to.equal(false);
    expect(statSync(fresh).isFile()).to.equal(true);
  });

  it('never removes a file in an objects/tmp/ that was there before, nor one of another name or kind', async () => {
    // A tmp/ directory beside the database that is not Mira's, with old files of all kinds.
    const tmp = join(dir, 'objects', 'tmp');
    mkdirSync(tmp, { recursive: true });
    const foreign = ['left-by-a-crash', 'notes.txt', `${'c'.repeat(64)}.bak`, `.mira-tmp-${'e'.repeat(62)}-short`];
    for (const name of foreign) writeFileSync(join(tmp, name), 'theirs');
    execFileSync('mkfifo', [join(tmp, `${'a'.repeat(64)}.${'1f'.repeat(6)}`)]);
    symlinkSync('/etc/hostname', join(tmp, `${'b'.repeat(64)}.${'1f'.repeat(6)}`));
    const memory = await keep(store, pngBytes(500));
    const shard = join(dir, 'objects', 'sha256', memory.payloads[1]!.sha256!.slice(0, 2));
    execFileSync('mkfifo', [join(shard, `.mira-tmp-${'f'.repeat(62)}-${'0a'.repeat(6)}`)]);
    const before = readdirSync(dir, { recursive: true }).map(String).sort();
    for (const path of readdirSync(tmp)) lutimesSync(join(tmp, path), 0, 0);
    expect(await store.collectObjects(0)).to.deep.equal({ objects: 0, bytes: 0 });
    expect(readdirSync(dir, { recursive: true }).map(String).sort()).to.deep.equal(before);
    for (const name of foreign) expect(readFileSync(join(tmp, name), 'utf8')).to.equal('theirs');
  });

  it("in a directory without Mira's marker, removes only files whose bytes hash to the digest they are named by", async () => {
    // Another program's store beside the database, with names like Mira's but other bytes: never Mira's.
    const top = join(dir, 'objects', 'sha256');
    const theirs = [
      join(top, 'ab', 'c'.repeat(62)),
      join(dir, 'objects', 'tmp', `${'d'.repeat(64)}.${'1f'.repeat(6)}`),
    ];
    // And what an earlier build of Mira's left before it wrote the marker: bytes that are their name.
    const bytes = pngBytes(300);
    const sha = sha256Hex(bytes);
    const ours = [join(top, sha.slice(0, 2), sha.slice(2)), join(dir, 'objects', 'tmp', `${sha}.${'2e'.repeat(6)}`)];
    for (const path of [...theirs, ...ours]) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, theirs.includes(path) ? 'their bytes' : bytes);
      age(path, DEFAULT_OBJECT_GRACE_MS + 1000);
    }
    expect(existsSync(join(dir, 'objects', 'DATABASE'))).to.equal(false);
    expect(await store.collectObjects()).to.deep.equal({ objects: 1, bytes: 300 });
    for (const path of theirs) expect(readFileSync(path, 'utf8'), path).to.equal('their bytes');
    for (const path of ours) expect(existsSync(path), path).to.equal(false);
  });

  it('leaves no marker and no temporary file when a write fails (a full disk), and claims the directory next time', async () => {
    const database = join(dir, 'fresh', 'memory.sqlite3');
    mkdirSync(dirname(database));
    const full: WriteSeam = (fd, bytes, offset) => {
      // A disk with room for one byte: the first write takes it, the next fails as the kernel says.
      if (offset === 0 && bytes.length > 1) return writeSync(fd, bytes, 0, 1);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    };
    const object = prepareObject({ bytes: pngBytes(500), mediaType: 'image/png' }, 1e6);
    expect(() => new ObjectFiles(database, full).put(object)).to.throw(/ENOSPC/);
    expect(readdirSync(join(dir, 'fresh', 'objects'), { recursive: true })).to.deep.equal([]);
    // The next write, with room, claims the directory and keeps the object.
    new ObjectFiles(database).put(object);
    expect(readFileSync(join(dir, 'fresh', 'objects', 'DATABASE'), 'utf8')).to.equal('memory.sqlite3\n');
    // An object that fails after the marker is in place leaves no temporary file either.
    const other = prepareObject({ bytes: pngBytes(600), mediaType: 'image/png' }, 1e6);
    expect(() => new ObjectFiles(database, full).put(other)).to.throw(/ENOSPC/);
    expect(
      readdirSync(join(dir, 'fresh', 'objects'), { recursive: true })
        .map(String)
        .filter((name) => name.includes('.mira-tmp-')),
    ).to.deep.equal([]);
  });

  it('claims an empty marker an earlier build left when its write failed', async () => {
    mkdirSync(join(dir, 'objects'), { mode: 0o700 });
    writeFileSync(join(dir, 'objects', 'DATABASE'), '', { mode: 0o600 });
    await keep(store, pngBytes(500));
    expect(readFileSync(join(dir, 'objects', 'DATABASE'), 'utf8')).to.equal('memory.sqlite3\n');
  });

  it('reads only regular files: a FIFO as an object, as the marker, or in its directories freezes nothing', async () => {
    const memory = await keep(store, pngBytes(500));
    const path = objectFile(dir, memory.payloads[1]!.sha256!);
    rmSync(path);
    execFileSync('mkfifo', [path]);
    expect((await rejection(store.readObject(memory.id))).code).to.equal('MIRA_ERR_MEMORY_BACKEND');
    // Storing the same bytes again does not read it either, nor replace what is not Mira's.
    expect((await rejection(keep(store, pngBytes(500)))).code).to.equal('MIRA_ERR_MEMORY_BACKEND');
    expect(lstatSync(path).isFIFO()).to.equal(true);
    expect(await store.objectUsage()).to.deep.equal({ objects: 0, bytes: 0 });
    rmSync(join(dir, 'objects', 'DATABASE'));
    execFileSync('mkfifo', [join(dir, 'objects', 'DATABASE')]);
    expect((await rejection(keep(store, pngBytes(700)))).code).to.equal('MIRA_ERR_MEMORY_BACKEND');
    expect((await rejection(store.collectObjects(0))).code).to.equal('MIRA_ERR_MEMORY_BACKEND');
  });

  it('says the object store failed, not that an object is missing, when its file cannot be read', async () => {
    const memory = await keep(store, pngBytes(500));
    const path = objectFile(dir, memory.payloads[1]!.sha256!);
    rmSync(path);
    mkdirSync(path);
    expect((await rejection(store.readObject(memory.id))).code).to.equal('MIRA_ERR_MEMORY_BACKEND');
    rmSync(path, { recursive: true });
    expect((await rejection(store.readObject(memory.id))).code).to.equal('MIRA_ERR_MEMORY_OBJECT_MISSING');
  });

  it('collects an orphan only once it is older than the grace period', async () => {
    const orphan = await rejection(
      store.createMemory({
        kind: 'observation',
        summary: 'a view',
        links: [{ entityId: 99, role: 'subject' }],
        sourceKind: 'sensor_observation',
        object: { bytes: pngBytes(700), mediaType: 'image/png' },
      }),
    );
    expect(orphan.code).to.equal('MIRA_ERR_MEMORY_ENTITY_NOT_FOUND');
    const path = objectFile(dir, sha256Hex(pngBytes(700)));
    age(path, 60_000 - 500);
    expect(await store.collectObjects(60_000)).to.deep.equal({ objects: 0, bytes: 0 });
    age(path, 60_000 + 500);
    expect(await store.collectObjects(60_000)).to.deep.equal({ objects: 1, bytes: 700 });
  });
});

describe('snapshots: the camera, its freshness and the pose recorded', () => {
  let dir: string;
  let store: SqliteMemoryStore;
  const sensor = (id: string, kind: string, staleAfterMs = 1000): SensorDefinition => ({
    id,
    kind,
    unit: '',
    description: id,
    staleAfterMs,
  });
  const reading = (
    sensorId: string,
    value: SensorReading['value'],
    monotonic: number,
    image = false,
  ): SensorReading => ({
    sensorId,
    value,
    at: new Date('2026-06-01T08:00:00.000Z'),
    monotonic,
    ...(image ? { image: { mediaType: 'image/png' as const, bytes: pngBytes(300) } } : {}),
  });
  const sensorsOf = (defs: SensorDefinition[], readings: SensorReading[]) => ({
    list: () => defs,
    latest: (id: string) => readings.find((r) => r.sensorId === id),
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-snapshot-rules-'));
    store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('picks the only camera, or the one named by its id or the part after camera_', () => {
    const front = sensor('camera_front', 'image');
    const top = sensor('top', 'image');
    const odometry = sensor('odometry', 'odometry');
    expect(thrown(() => cameraSensor(sensorsOf([odometry], []), null)).message).to.equal(
      'MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE: this profile has no camera (a sensor of sensor_msgs/msg/CompressedImage); add one to its sensors',
    );
    expect(cameraSensor(sensorsOf([odometry, front], []), null)).to.equal(front);
    const both = sensorsOf([front, odometry, top], []);
    expect(cameraSensor(both, 'front')).to.equal(front);
    expect(cameraSensor(both, 'camera_front')).to.equal(front);
    expect(cameraSensor(both, 'top')).to.equal(top);
    expect(thrown(() => cameraSensor(both, 'odometry')).message).to.contain('there is no camera "odometry"');
    expect(thrown(() => cameraSensor(both, undefined)).message).to.contain('has 2 cameras (camera_front, top)');
  });

  it('keeps a frame as old as the camera allows, and refuses one a millisecond older, saying how old', async () => {
    const camera = sensor('camera_front', 'image', 2000);
    const sensors = sensorsOf([camera], [reading('camera_front', { format: 'png' }, 1000, true)]);
    const kept = await takeSnapshot(store, sensors, 3000, { links: [] });
    expect(kept.memory.summary).to.equal('snapshot from camera_front');
    expect(kept.memory.source.label).to.equal('camera_front at 2026-06-01T08:00:00.000Z');
    const stale = await rejection(takeSnapshot(store, sensors, 13_001, { links: [] }));
    expect(stale.message).to.equal(
      "MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE: camera camera_front's latest frame is 12 s old (stale after 2 s); nothing was kept",
    );
    expect((await rejection(takeSnapshot(store, sensors, 3001, { links: [] }))).code).to.equal(
      'MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE',
    );
  });

  it('records the pose of the first fresh, whole pose reading, and no other sensor', async () => {
    const defs = [
      sensor('camera_front', 'image', 5000),
      sensor('odometry', 'odometry'),
      sensor('amcl', 'pose', 1000),
      sensor('map_pose', 'pose', 1000),
    ];
    const frame = reading('camera_front', {}, 10_000, true);
    const label = async (readings: SensorReading[], now = 10_000) =>
      (await takeSnapshot(store, sensorsOf(defs, [frame, ...readings]), now, { links: [], caption: 'a view' })).memory
        .source.label;
    const odometry = reading('odometry', { x: 9, y: 9, yaw: 0, frame: 'odom' }, 10_000);
    // Odometry is no map pose, whatever fields it has.
    expect(await label([odometry])).to.equal('camera_front at 2026-06-01T08:00:00.000Z');
    // A pose heard exactly as long ago as it stays fresh counts; a millisecond more does not.
    expect(await label([reading('amcl', { x: 1, y: 2, yaw: Math.PI / 2, frame: 'map' }, 9000)])).to.equal(
      'camera_front at 2026-06-01T08:00:00.000Z, (1, 2, 90°) in map',
    );
    expect(await label([reading('amcl', { x: 1, y: 2, yaw: 0, frame: 'map' }, 8999)])).to.equal(
      'camera_front at 2026-06-01T08:00:00.000Z',
    );
    // A reading without a whole pose is passed over for the next pose sensor.
    expect(
      await label([
        reading('amcl', { x: 1, y: 2, yaw: 0 }, 10_000),
        reading('map_pose', { x: 3, y: 4, yaw: 0, frame: 'map' }, 10_000),
      ]),
    ).to.equal('camera_front at 2026-06-01T08:00:00.000Z, (3, 4, 0°) in map');
  });

  it('reads a pose only from numbers and a frame name', () => {
    const at = (value: SensorReading['value']) => poseOfReading(reading('amcl', value, 0));
    expect(at({ x: 1, y: 2, yaw: 0, frame: 'map' })).to.deep.equal({ x: 1, y: 2, yawDeg: 0, frame: 'map' });
    for (const value of [
      { x: '1', y: 2, yaw: 0, frame: 'map' },
      { x: 1, y: '2', yaw: 0, frame: 'map' },
      { x: 1, y: 2, yaw: '0', frame: 'map' },
      { x: 1, y: 2, yaw: 0, frame: 3 },
      { x: 1, y: 2, yaw: 0, frame: 'bad frame' },
    ])
      expect(at(value as never), JSON.stringify(value)).to.equal(undefined);
  });
});
