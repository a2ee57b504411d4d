import { defineErrors } from '@mira/core';

/** The errors of `@mira/robot`: the hardware layer every robot transport shares. */
export const HardwareErrors = defineErrors('@mira/robot', {
  TRANSPORT_UNAVAILABLE: {
    code: 'MIRA_ERR_HARDWARE_TRANSPORT_UNAVAILABLE',
    message: 'the robot transport cannot be used here (e.g. rclnodejs without a sourced ROS 2)',
    fix: 'source ROS 2 before starting, or use transport = "rosbridge"',
    situations: {
      noSafetyPath: '{name}: a drive needs a safety path; the hardware plugin must say how its safety worker connects',
      rosNotSourced: 'ROS 2 is not sourced in this shell; {hint}',
      rclnodejs: 'rclnodejs cannot be loaded ({reason}); {hint}',
      noActionGoals: '{name} cannot send action goals, so navigation cannot be offered; remove the navigation table',
      navigationWithoutDrive:
        'navigation needs a drive table too: the safety path, which owns the drive, cancels goals on every stop',
    },
  },
  TRANSPORT_FAILED: {
    code: 'MIRA_ERR_HARDWARE_TRANSPORT_FAILED',
    message: 'the robot transport failed or is closed',
    fix: 'check the robot or bridge connection the message names',
    situations: {
      safetyPathStopped: 'the safety path is not running',
      connect: '{name}: cannot connect: {reason}',
      safetyPathConnect: 'the safety path could not connect its own transport: {reason}',
      safetyPathShutdown: 'the safety path did not confirm zero velocity at shutdown',
      failed: '{name}: {reason}',
      notConnected: '{name}: not connected',
      goalId: '{name}: {id} is not a goal UUID',
      cancelRefused: '{name}: {action} refused to cancel goal {id} ({reason})',
      wholeNumber: '{where} must be a whole number, got {value}',
      rosbridgeOpen: 'cannot open a connection to rosbridge at {url}: {reason}; fix [ros2] url',
      rosbridgeUnreachable:
        'cannot reach rosbridge at {url} within {timeoutMs} ms ({last}); start rosbridge_server on the robot or fix [ros2] url',
      closedNotSent: '{name}: closed; {what} was not sent',
      notConnectedNotSent: '{name}: not connected ({why}); {what} was not sent and is not queued',
      serviceFailed: '{name}: service {service} failed: {reason}',
      closedDuringCall: '{name}: the connection closed during the call to {service}',
      closedGoalNotSent: '{name}: closed; the goal was not sent',
      closedDuringGoal:
        '{name}: the connection closed while the goal to {action} was running; the robot may still be pursuing it',
      closed: '{name}: the transport is closed',
      publishNotConnected: '{name}: cannot publish on {topic}: not connected',
      simClosed: 'sim: the transport is closed',
      simPublishClosed: 'sim: cannot publish on {topic}: the transport is closed',
    },
  },
  SERVICE_TIMEOUT: {
    code: 'MIRA_ERR_HARDWARE_SERVICE_TIMEOUT',
    message: 'a ROS service did not answer in time',
    fix: 'check that the service is offered and the node is alive',
    situations: {
      serviceUnavailable: '{name}: service {service} is not available within {timeoutMs} ms',
      noActionServer: '{name}: no action server on {action}',
      serviceNoAnswer: '{name}: service {service} did not answer within {timeoutMs} ms',
      simServiceNoAnswer: 'sim: no service {service} answered within {timeoutMs} ms',
    },
  },
  UNSUPPORTED_MESSAGE: {
    code: 'MIRA_ERR_HARDWARE_UNSUPPORTED_MESSAGE',
    message: 'a message type is not one Mira understands',
    fix: 'map the sensor to one of the supported standard message types',
    situations: {
      servicesBetweenThreads: '{name}: services are not carried between threads',
      callBetweenThreads: '{name}: cannot call {service}: services are not carried between threads',
    },
  },
});

/** The codes of `@mira/robot` by key. */
export const HardwareErrorCodes = HardwareErrors.codes;
/** Every error code of `@mira/robot`. */
export type HardwareErrorCode = (typeof HardwareErrorCodes)[keyof typeof HardwareErrorCodes];
