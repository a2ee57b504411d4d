/**
 * A camera frame within the budget a model's request has room for: decoded (JPEG with jpeg-js, PNG with
 * pngjs, both pure JavaScript), shrunk by area averaging until its longest side fits the pixel budget, and
 * encoded as JPEG at the highest quality step whose bytes fit the byte budget.
 */
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';
import type { SensorImage } from '@mira/core';

/** The longest side of a frame the model is shown, in pixels. */
export const LOOK_MAX_SIDE_PX = 512;
/** The most bytes of a frame the model is shown (the JPEG, before base64 adds a third). */
export const LOOK_MAX_BYTES = 64 * 1024;
/** JPEG qualities tried in turn, best first, until the frame fits {@link LOOK_MAX_BYTES}. */
export const LOOK_QUALITIES = [80, 65, 50, 35, 20] as const;
/** The largest frame decoded (megapixels): jpeg-js refuses more, before allocating. */
export const LOOK_MAX_INPUT_MP = 40;

/** A frame as the model is shown it. */
export interface ShownFrame {
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** The frame as the camera sent it. */
  readonly source: { readonly width: number; readonly height: number; readonly bytes: number };
  readonly quality: number;
}

/** RGBA pixels, 4 bytes a pixel, rows top to bottom. */
interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

function decode(image: SensorImage): Pixels {
  if (image.mediaType === 'image/png') {
    const png = pngjs.PNG.sync.read(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.length));
    if (png.width * png.height > LOOK_MAX_INPUT_MP * 1e6) {
      throw new Error(`the frame is ${png.width}×${png.height}, more than ${LOOK_MAX_INPUT_MP} megapixels`);
    }
    return { width: png.width, height: png.height, data: png.data };
  }
  return jpeg.decode(image.bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: LOOK_MAX_INPUT_MP,
    maxMemoryUsageInMB: 512,
  });
}

/** The size whose longest side is at most `maxSide`, in proportion (each side at least 1). */
export function fittedSize(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * `pixels` shrunk to `width` × `height` by averaging the source pixels each target pixel covers (a box
 * filter: no aliasing on a large reduction, unlike picking one pixel in N). Alpha is dropped (JPEG has none).
 */
function shrink(pixels: Pixels, width: number, height: number): Pixels {
  if (width === pixels.width && height === pixels.height) return pixels;
  const out = new Uint8Array(width * height * 4);
  const sx = pixels.width / width;
  const sy = pixels.height / height;
  for (let y = 0; y < height; y += 1) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < width; x += 1) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy += 1) {
        let i = (yy * pixels.width + x0) * 4;
        for (let xx = x0; xx < x1; xx += 1, i += 4) {
          r += pixels.data[i]!;
          g += pixels.data[i + 1]!;
          b += pixels.data[i + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/**
 * The frame within the budget: its longest side at most `maxSide` pixels, a JPEG of at most `maxBytes` bytes
 * at the best of {@link LOOK_QUALITIES} that fits (halved in size again while even the lowest does not).
 * @throws Error when the frame cannot be decoded (a corrupt or truncated image, or one past
 *   {@link LOOK_MAX_INPUT_MP} megapixels)
 */
export function frameForModel(image: SensorImage, maxSide = LOOK_MAX_SIDE_PX, maxBytes = LOOK_MAX_BYTES): ShownFrame {
  const decoded = decode(image);
  const source = { width: decoded.width, height: decoded.height, bytes: image.bytes.length };
  let size = fittedSize(decoded.width, decoded.height, maxSide);
  for (;;) {
    const pixels = shrink(decoded, size.width, size.height);
    for (const quality of LOOK_QUALITIES) {
      const encoded = jpeg.encode({ width: pixels.width, height: pixels.height, data: pixels.data }, quality).data;
      if (encoded.length <= maxBytes || (size.width === 1 && size.height === 1)) {
        return { jpeg: new Uint8Array(encoded), width: pixels.width, height: pixels.height, source, quality };
      }
    }
    size = fittedSize(size.width, size.height, Math.floor(Math.max(size.width, size.height) / 2));
  }
}
