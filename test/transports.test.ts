import { ManualClock } from '@mira/core';
import { RclnodejsTransport, RosbridgeTransport } from '@mira/plugin-ros2';
import { SimRobot, SimTransport } from '@mira/plugin-sim';
import { describeTransportContract } from './conformance/transport-contract.js';
import rclnodejsStandin from './helpers/rclnodejs-standin.js';
import { startRosbridgeServer } from './helpers/rosbridge-server.js';

describeTransportContract('sim', async () => ({
  transport: new SimTransport(new SimRobot(), new ManualClock(), { sensors: [], tickMs: 0 }),
  dispose: async () => {},
}));

describeTransportContract('rosbridge (roslib ↔ a rosbridge v2 server on 127.0.0.1)', async () => {
  const server = await startRosbridgeServer();
  return { transport: new RosbridgeTransport(server.url, 2000), dispose: () => server.close() };
});

describeTransportContract('rclnodejs (the stand-in module for rclnodejs 2.2)', async () => ({
  transport: new RclnodejsTransport(`mira_contract_${process.pid}`, '', { load: async () => rclnodejsStandin }),
  dispose: async () => {},
}));

describeTransportContract(
  'rclnodejs (native ROS 2)',
  async () => ({ transport: new RclnodejsTransport(`mira_contract_${process.pid}`), dispose: async () => {} }),
  () =>
    process.env.ROS_DISTRO || process.env.AMENT_PREFIX_PATH
      ? undefined
      : 'ROS 2 is not sourced on this machine (no ROS_DISTRO), so rclnodejs cannot run here',
);
