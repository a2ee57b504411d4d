/**
 * The simulated robot's front camera: a small PNG rendered from where the robot stands — the room's
 * four walls each in their own colour (so the heading shows), the wall ahead taller the nearer it is, a
 * floor below — encoded here (zlib's deflate, PNG's CRC-32), so the simulator needs no image library.
 */
import { crc32, deflateSync } from 'node:zlib';

/** The frame's size: small, as a thumbnail is, and a real PNG every image reader opens. */
export const CAMERA_WIDTH = 96;
export const CAMERA_HEIGHT = 64;
/** Horizontal field of view, radians. */
const FIELD_OF_VIEW = (70 * Math.PI) / 180;

/** Wall colours: east (+x), north (+y), west, south. */
const WALLS: ReadonlyArray<readonly [number, number, number]> = [
  [200, 80, 60],
  [70, 140, 200],
  [90, 170, 90],
  [220, 190, 70],
];
const FLOOR: readonly [number, number, number] = [120, 110, 100];
const CEILING: readonly [number, number, number] = [235, 235, 240];

/** Which wall a ray from (x, y) at `angle` meets in a square room of half size `h`, and how far. */
function castRay(x: number, y: number, angle: number, h: number): { wall: number; distance: number } {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const hits: Array<{ wall: number; distance: number }> = [];
  if (dx > 1e-12) hits.push({ wall: 0, distance: (h - x) / dx });
  if (dy > 1e-12) hits.push({ wall: 1, distance: (h - y) / dy });
  if (dx < -1e-12) hits.push({ wall: 2, distance: (-h - x) / dx });
  if (dy < -1e-12) hits.push({ wall: 3, distance: (-h - y) / dy });
  return hits.reduce((a, b) => (b.distance < a.distance ? b : a));
}

/** The RGB rows of the view from pose (x, y, yaw) in a room of half size `h` (metres). */
export function renderView(x: number, y: number, yaw: number, h: number): Buffer {
  const pixels = Buffer.alloc(CAMERA_WIDTH * CAMERA_HEIGHT * 3);
  for (let column = 0; column < CAMERA_WIDTH; column += 1) {
    const angle = yaw + FIELD_OF_VIEW / 2 - (FIELD_OF_VIEW * (column + 0.5)) / CAMERA_WIDTH;
    const { wall, distance } = castRay(x, y, angle, h);
    // A wall 1 m away fills the frame's height; further ones shrink; nearer ones are darker-edged.
    const half = Math.min(CAMERA_HEIGHT / 2, CAMERA_HEIGHT / 2 / Math.max(distance * Math.cos(angle - yaw), 0.05));
    const shade = Math.max(0.35, 1 - distance / (4 * h));
    for (let row = 0; row < CAMERA_HEIGHT; row += 1) {
      const fromMiddle = row + 0.5 - CAMERA_HEIGHT / 2;
      const colour =
        Math.abs(fromMiddle) <= half
          ? WALLS[wall]!.map((c) => Math.round(c * shade))
          : fromMiddle < 0
            ? CEILING
            : FLOOR;
      pixels.set(colour, (row * CAMERA_WIDTH + column) * 3);
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of `width` × `height` from `rgb` (rows top to bottom, 3 bytes a pixel). */
export function encodePng(width: number, height: number, rgb: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let row = 0; row < height; row += 1) {
    rows[row * (1 + width * 3)] = 0; // filter: none
    rgb.copy(rows, row * (1 + width * 3) + 1, row * width * 3, (row + 1) * width * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The camera's frame now, as a PNG. */
export function cameraFrame(x: number, y: number, yaw: number, roomHalfSizeM: number): Buffer {
  return encodePng(CAMERA_WIDTH, CAMERA_HEIGHT, renderView(x, y, yaw, roomHalfSizeM));
}
