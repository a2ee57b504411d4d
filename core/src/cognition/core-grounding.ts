import { formatAge } from '../format-age.js';
import type { KernelHooks } from '../hooks.js';
import type { SensorDefinition, SensorReading } from '../sensors.js';
import { CORE_NAME, type RuntimeServices } from '../types.js';
import { compactValue } from './grounding.js';

/** What the core's grounding reads: the clock and profile, and the sensors with their latest readings. */
export interface CoreGroundingInputs {
  readonly hooks: KernelHooks;
  readonly services: RuntimeServices;
  readonly sensors: { list(): readonly SensorDefinition[]; latest(id: string): SensorReading | undefined };
}

/**
 * Taps the core's grounding sections: the runtime self and the sensors (fixed, with the instructions), the time
 * since `sessionStart` (a monotonic reading) and the latest sensor readings (changing, on the newest message).
 */
export function tapCoreGrounding(inputs: CoreGroundingInputs, sessionStart: number): void {
  const { hooks, services, sensors: sensorView } = inputs;
  hooks.grounding.tap({ name: CORE_NAME, stage: -100 }, (grounding) => {
    const now = services.clock.now();
    const since = services.clock.monotonic() - sessionStart;
    const self = `Runtime self: ${services.profile.name}${services.profile.description ? ` — ${services.profile.description}` : ''}`;
    const time = [`Current time (UTC): ${now.toISOString()}`, `Time since session start: ${formatAge(since)}`];
    return {
      sections: [
        ...grounding.sections,
        { source: 'self', text: self, fixed: true },
        { source: 'runtime', text: time.join('\n') },
      ],
    };
  });
  hooks.grounding.tap({ name: CORE_NAME, stage: -50 }, (grounding) => {
    const sensors = sensorView.list();
    if (sensors.length === 0) return grounding;
    const now = services.clock.monotonic();
    // What each sensor is stays the same all session (with the instructions); only its reading changes.
    const kinds = sensors.map((sensor) => `- ${sensor.id}: ${sensor.kind}, ${sensor.unit}`);
    const lines = sensors.map((sensor) => {
      const reading = sensorView.latest(sensor.id);
      if (!reading) return `- ${sensor.id}: no reading yet`;
      const age = now - reading.monotonic;
      const stale = sensor.staleAfterMs !== undefined && age > sensor.staleAfterMs ? ' (STALE)' : '';
      return `- ${sensor.id}: ${compactValue(reading.value)}; ${formatAge(age)} old${stale}`;
    });
    return {
      sections: [
        ...grounding.sections,
        { source: 'sensors', text: `Sensors (kind, unit):\n${kinds.join('\n')}`, fixed: true },
        { source: 'readings', text: `Latest sensor readings:\n${lines.join('\n')}` },
      ],
    };
  });
}
