import type { Kernel } from '../kernel.js';
import { rejectedResult } from '../cognition/engine.js';
import { EPISODE_ORIGINS } from '../types.js';
import { DEFAULT_READ_TIMEOUT_MS } from './robot.js';

/**
 * Registers `read_sensor(sensor_id)`, an acquisition tool for fresh
 * perception: it asks the transport for a new reading within the sensor's
 * timeout and says plainly when none came. Registered by core when the
 * profile has sensors.
 */
export function registerReadSensor(kernel: Kernel, owner: string): void {
  const sensors = kernel.sensors.values();
  if (sensors.length === 0) return;
  kernel.registerTool(
    {
      name: 'read_sensor',
      description: 'Take a fresh reading from one sensor now (current state of the world needs fresh perception, not memory).',
      kind: 'acquisition',
      origins: EPISODE_ORIGINS,
      parameters: {
        type: 'object',
        properties: { sensor_id: { type: 'string', enum: sensors.map((s) => s.id), description: 'Which sensor to read.' } },
        required: ['sensor_id'],
        additionalProperties: false,
      },
      run: async ({ sensor_id }: { sensor_id: string }) => {
        const sensor = kernel.sensors.get(sensor_id)!;
        if (!sensor.read) return rejectedResult('not_readable', `sensor ${sensor_id} only streams; use the latest reading in the grounding`);
        const timeout = sensor.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
        const reading = await sensor.read(timeout);
        if (!reading) {
          return {
            content: JSON.stringify({ status: 'no_reading', sensor_id, error: `no fresh reading from ${sensor_id} came within ${timeout} ms; the sensor or its link may be down` }),
            display: `no reading ${sensor_id} within ${timeout} ms`,
          };
        }
        return {
          content: JSON.stringify({ status: 'fresh', sensor_id, unit: sensor.unit, value: reading.value, at: reading.at.toISOString() }),
          display: `fresh ${sensor_id} ${JSON.stringify(reading.value)}`,
        };
      },
    },
    owner,
  );
}
