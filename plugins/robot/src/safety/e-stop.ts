import type { QosProfile, RobotTransport, RosMessage } from '../transport.js';

/** The e-stop's message type. */
export const E_STOP_TYPE = 'std_msgs/msg/Bool';

/**
 * The QoS the e-stop is subscribed with on native ROS 2. DDS matches a subscription only with publishers
 * that offer at least what it requests, so one profile cannot hear every e-stop publisher:
 * - reliable + transient local (keep last 1): hears a latched e-stop, the last state a transient-local
 *   publisher sent before Mira started;
 * - best effort + volatile: matches every publisher (best-effort ones included), from now on.
 * Both feed the same handler. A rosbridge server subscribes on Mira's behalf with its own QoS, so there
 * the first alone is asked for.
 */
export const E_STOP_QOS: readonly QosProfile[] = [
  { reliability: 'reliable', durability: 'transient_local', depth: 1 },
  { reliability: 'best_effort', durability: 'volatile', depth: 1 },
];

/** Subscribes the e-stop topic so that every kind of e-stop publisher is heard; returns the unsubscribe. */
export function subscribeEStop(
  transport: RobotTransport,
  topic: string,
  handler: (message: RosMessage) => void,
): () => void {
  const profiles = transport.link ? E_STOP_QOS.slice(0, 1) : E_STOP_QOS;
  const unsubscribers = profiles.map((qos) => transport.subscribe(topic, E_STOP_TYPE, handler, qos));
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}
