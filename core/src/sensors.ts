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
  readonly value: number | string | boolean | Readonly<Record<string, number | string | boolean>>;
  /** Wall-clock time of the reading. */
  readonly at: Date;
  /** Monotonic milliseconds of the reading, for its age. */
  readonly monotonic: number;
}

/** How long `read_sensor` waits for a fresh reading when the sensor names no timeout. */
export const DEFAULT_READ_TIMEOUT_MS = 2000;
