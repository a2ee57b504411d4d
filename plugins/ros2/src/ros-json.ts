import { HardwareErrors, type RosMessage } from '@mira/robot';
import type { RclMessageDef } from './rclnodejs-api.js';

const INT64_TYPES = new Set(['int64', 'uint64']);

/**
 * A message from rclnodejs as the plain JSON rosbridge gives: 64-bit integers
 * (BigInt in rclnodejs) become numbers, typed arrays become arrays. NaN and ±Inf
 * stay numbers, so the message converters can tell them apart; `JSON.stringify`
 * writes them as `null`, as rosbridge does.
 */
export function toPlainJson(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<number | bigint>, (v) => toPlainJson(v));
  }
  if (Array.isArray(value)) return value.map((v) => toPlainJson(v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainJson(v)]));
  }
  return value;
}

function toBigInt(value: unknown, where: string): unknown {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw HardwareErrors.error('TRANSPORT_FAILED.wholeNumber', { where, value: String(value) });
}

/**
 * A plain JSON message (as Mira and rosbridge write it) in the form rclnodejs
 * accepts: its int64/uint64 fields as BigInt (rclnodejs throws on a number),
 * found from the message definition, nested messages included.
 */
export function toRclMessage(
  message: RosMessage,
  type: string,
  schemaOf: (type: string) => RclMessageDef,
  where = type,
): RosMessage {
  const schema = schemaOf(type);
  const out: RosMessage = { ...message };
  for (const field of schema.fields) {
    const value = message[field.name];
    if (value === undefined || value === null) continue;
    const path = `${where}.${field.name}`;
    const { isPrimitiveType, isArray, pkgName } = field.type;
    if (isPrimitiveType && INT64_TYPES.has(field.type.type)) {
      out[field.name] = isArray
        ? Array.from(value as ArrayLike<unknown>, (v, i) => toBigInt(v, `${path}[${i}]`))
        : toBigInt(value, path);
    } else if (!isPrimitiveType && pkgName) {
      const nested = `${pkgName}/msg/${field.type.type}`;
      out[field.name] = isArray
        ? Array.from(value as ArrayLike<RosMessage>, (v, i) => toRclMessage(v, nested, schemaOf, `${path}[${i}]`))
        : toRclMessage(value as RosMessage, nested, schemaOf, path);
    }
  }
  return out;
}
