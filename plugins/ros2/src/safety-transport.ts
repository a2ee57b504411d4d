import type { RobotTransport, SafetyTransportContext } from '@mira/robot';
import { RclnodejsTransport } from './rclnodejs-transport.js';
import { RosbridgeTransport } from './rosbridge-transport.js';

/** The safety path's own rosbridge connection (called inside the safety worker). */
export function connectRosbridge(
  options: { url: string; connect_timeout_ms: number; liveness_ms?: number },
  context: SafetyTransportContext,
): RobotTransport {
  return new RosbridgeTransport(options.url, options.connect_timeout_ms, (message) => context.log(message), {
    livenessMs: options.liveness_ms,
  });
}

/** The safety path's own ROS 2 node (called inside the safety worker; written to rclnodejs's documented API). */
export function connectRclnodejs(
  options: { node_name: string; namespace: string },
  context: SafetyTransportContext,
): RobotTransport {
  return new RclnodejsTransport(options.node_name, options.namespace, { log: (message) => context.log(message) });
}
