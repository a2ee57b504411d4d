/** A sensor a hardware plugin exposes. Readings are published on `hooks.sensorReading.for(id)`. */
export interface SensorDefinition {
  /** Unique id, e.g. `battery`. */
  readonly id: string;
  /** What it measures, e.g. `battery`, `range`, `odometry`. */
  readonly kind: string;
  /** Unit of the value, e.g. `percent`, `m`. */
  readonly unit: string;
  /** The fields an object value may have (`percent`, `voltage`, …), when known: monitors are checked against them. */
  readonly fields?: readonly string[];
  readonly description?: string;
  /** Readings older than this are reported as stale (milliseconds). */
  readonly staleAfterMs?: number;
  /** How long `read_sensor` waits for a fresh reading (default 2000 ms). */
  readonly readTimeoutMs?: number;
  /** Asks the transport for a fresh reading; absent when the sensor only streams. */
  read?(timeoutMs: number): Promise<SensorReading | undefined>;
}

/** One timestamped reading. */
export interface SensorReading {
  readonly sensorId: string;
  /** What the model, the console and the monitors read: small and plain (a camera's: format and size). */
  readonly value: number | string | boolean | Readonly<Record<string, number | string | boolean>>;
  /** Wall-clock time of the reading. */
  readonly at: Date;
  /** Monotonic milliseconds of the reading, for its age. */
  readonly monotonic: number;
  /** A camera's frame: kept beside `value`, never shown to the model; `memory snapshot` keeps it. */
  readonly image?: SensorImage;
}

/** An encoded camera frame. */
export interface SensorImage {
  readonly mediaType: 'image/jpeg' | 'image/png';
  readonly bytes: Uint8Array;
}

/** How long `read_sensor` waits for a fresh reading when the sensor names no timeout. */
export const DEFAULT_READ_TIMEOUT_MS = 2000;
