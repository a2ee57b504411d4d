import type { RosMessage } from './transport.js';

/** The most a message shown to the model takes, as JSON (bytes of UTF-8). */
export const MESSAGE_BYTE_BOUND = 4096;
/** Items of an array shown before the cut marker (a second, tighter pass shows fewer). */
export const ARRAY_ITEMS_SHOWN = 8;
/** Characters of a string shown before the cut marker (a second, tighter pass shows fewer). */
export const STRING_CHARS_SHOWN = 200;

/** Message types whose `data` is an image: summarised by its size, never dumped. */
export const IMAGE_MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'sensor_msgs/msg/Image',
  'sensor_msgs/msg/CompressedImage',
]);

/** A message cut to a bound, and whether anything was cut. */
export interface BoundedMessage {
  readonly message: unknown;
  readonly cut: boolean;
}

/** The bytes a `uint8[]` field holds: base64 text over rosbridge's JSON, numbers (or a typed array) natively. */
function byteCount(data: unknown): number {
  if (typeof data === 'string') return Buffer.from(data, 'base64').length;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  if (Array.isArray(data)) return data.length;
  return 0;
}

function cutValue(value: unknown, items: number, chars: number, state: { cut: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.length <= chars) return value;
    state.cut = true;
    return `${value.slice(0, chars)}… (${value.length - chars} more characters)`;
  }
  if (typeof value === 'bigint') return Number(value);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return cutValue(Array.from(value as unknown as ArrayLike<number>), items, chars, state);
  }
  if (Array.isArray(value)) {
    const shown = value.slice(0, items).map((v) => cutValue(v, items, chars, state));
    if (value.length <= items) return shown;
    state.cut = true;
    return [...shown, `… ${value.length - items} more items (${value.length} in all)`];
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutValue(v, items, chars, state)]));
  }
  return value;
}

/** A value (a parameter's, say) with its arrays and strings cut as {@link boundMessage} cuts them. */
export function cutValues(value: unknown): unknown {
  return cutValue(value, ARRAY_ITEMS_SHOWN, STRING_CHARS_SHOWN, { cut: false });
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * A message as the model may see it, within {@link MESSAGE_BYTE_BOUND}: arrays cut after
 * {@link ARRAY_ITEMS_SHOWN} items with a marker item (`"… 1016 more items (1024 in all)"`), strings after
 * {@link STRING_CHARS_SHOWN} characters with a marker, an image's `data` replaced by its size
 * (`"<38016 bytes of image data, not shown>"`). Still too large, it is cut again (2 items, 40 characters);
 * still too large, only its field names are given.
 *
 * @example
 * boundMessage('sensor_msgs/msg/LaserScan', scan).message // { ranges: [0.5, …, '… 352 more items (360 in all)'], … }
 */
export function boundMessage(type: string, message: RosMessage): BoundedMessage {
  const state = { cut: false };
  let input: RosMessage = message;
  if (IMAGE_MESSAGE_TYPES.has(type) && 'data' in message) {
    input = { ...message, data: `<${byteCount(message.data)} bytes of image data, not shown>` };
  }
  for (const [items, chars] of [
    [ARRAY_ITEMS_SHOWN, STRING_CHARS_SHOWN],
    [2, 40],
  ] as const) {
    const shown = cutValue(input, items, chars, state);
    if (bytesOf(shown) <= MESSAGE_BYTE_BOUND) return { message: shown, cut: state.cut };
  }
  return {
    message: {
      '…': `a message too large to show (more than ${MESSAGE_BYTE_BOUND} bytes even cut); its fields: ${Object.keys(message).join(', ')}`,
    },
    cut: true,
  };
}
