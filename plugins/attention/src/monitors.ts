import type { SensorReading } from '@mira/core';

/** A threshold on one sensor value, from the profile. */
export interface MonitorConfig {
  readonly id: string;
  readonly sensor: string;
  /** The field of an object value, e.g. `percent`; omit for plain numbers. */
  readonly field?: string;
  /** Trigger when the value falls below this… */
  readonly below?: number;
  /** …and re-arm only once it rises above this (hysteresis; default: `below`). */
  readonly clear_above?: number;
  /** Trigger when the value rises above this… */
  readonly above?: number;
  /** …and re-arm only once it falls below this (default: `above`). */
  readonly clear_below?: number;
  /** What the episode is told, e.g. "The battery is low." */
  readonly message: string;
}

/** A crossing that should start a `monitor` episode. */
export interface Crossing {
  readonly monitor: MonitorConfig;
  readonly value: number;
  readonly description: string;
}

/** Reads the monitored number from a reading, or undefined when absent. */
export function monitoredValue(monitor: MonitorConfig, reading: SensorReading): number | undefined {
  const raw = monitor.field === undefined ? reading.value : (reading.value as Record<string, unknown>)?.[monitor.field];
  return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
}

/**
 * One monitor's state machine: armed → triggered when the threshold is
 * crossed; triggered → armed only past the clearing level, so a value
 * hovering at the threshold does not start an episode on every reading.
 */
export class MonitorState {
  #armed = true;

  constructor(readonly monitor: MonitorConfig) {}

  get armed(): boolean {
    return this.#armed;
  }

  /** Feeds one reading; returns the crossing when this reading triggers the monitor. */
  observe(reading: SensorReading): Crossing | undefined {
    const m = this.monitor;
    const value = monitoredValue(m, reading);
    if (value === undefined) return undefined;
    const name = `${m.sensor}${m.field ? `.${m.field}` : ''}`;
    // A battery that is charging is not running low: it does not fire a below-threshold monitor.
    const charging = (reading.value as Record<string, unknown> | null)?.charging === true;
    if (this.#armed) {
      if (m.below !== undefined && value < m.below && !charging) {
        this.#armed = false;
        return { monitor: m, value, description: `${name} = ${value} < ${m.below}` };
      }
      if (m.above !== undefined && value > m.above) {
        this.#armed = false;
        return { monitor: m, value, description: `${name} = ${value} > ${m.above}` };
      }
      return undefined;
    }
    const clearedLow = m.below === undefined || value > (m.clear_above ?? m.below);
    const clearedHigh = m.above === undefined || value < (m.clear_below ?? m.above);
    if (clearedLow && clearedHigh) this.#armed = true;
    return undefined;
  }
}
