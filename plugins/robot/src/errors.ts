import { defineErrors } from '@mira/core';

/** The errors of `@mira/robot`: the hardware layer every robot transport shares. */
export const HardwareErrors = defineErrors('@mira/robot', {
  TRANSPORT_UNAVAILABLE: {
    code: 'MIRA_ERR_HARDWARE_TRANSPORT_UNAVAILABLE',
    message: 'the robot transport cannot be used here (e.g. rclnodejs without a sourced ROS 2)',
    fix: 'source ROS 2 before starting, or use transport = "rosbridge"',
    situations: {
      noSafetyPath: {
        message: '{name}: a drive needs a safety path; the hardware plugin must say how its safety worker connects',
        fix: "give the hardware plugin's drive a safety path (how its safety worker connects); see the plugin's README",
      },
      rosNotSourced: {
        message: 'ROS 2 is not sourced in this shell; {hint}',
        fix: 'source ROS 2 in this shell (source /opt/ros/<distro>/setup.bash) before starting, or use transport = "rosbridge"',
      },
      rclnodejs: {
        message: 'rclnodejs cannot be loaded ({reason}); {hint}',
        fix: 'install rclnodejs where ROS 2 is sourced (npm install rclnodejs), or use transport = "rosbridge"',
      },
      noActionGoals: {
        message: '{name} cannot send action goals, so navigation cannot be offered; remove the navigation table',
        fix: 'remove the navigation table, or use a transport that sends action goals (rclnodejs or rosbridge)',
      },
      navigationWithoutDrive: {
        message:
          'navigation needs a drive table too: the safety path, which owns the drive, cancels goals on every stop',
        fix: 'add a drive table beside the navigation table in the profile',
      },
    },
  },
  TRANSPORT_FAILED: {
    code: 'MIRA_ERR_HARDWARE_TRANSPORT_FAILED',
    message: 'the robot transport failed or is closed',
    fix: 'check the robot or bridge connection the message names',
    situations: {
      safetyPathStopped: {
        message: 'the safety path is not running',
        fix: 'restart mira; if it recurs, the log on stderr says why the safety worker stopped',
      },
      connect: {
        message: '{name}: cannot connect: {reason}',
        fix: 'check that the robot or bridge the message names is running and reachable, then start again',
      },
      safetyPathConnect: {
        message: 'the safety path could not connect its own transport: {reason}',
        fix: 'check that the safety worker can reach the robot too (same URL or ROS 2 domain), then start again',
      },
      safetyPathShutdown: {
        message: 'the safety path did not confirm zero velocity at shutdown',
        fix: 'check that the robot stopped; if it did not, stop it by hand and look at its drive topic',
      },
      failed: {
        message: '{name}: {reason}',
        fix: 'check the robot or bridge connection the message names',
      },
      notConnected: {
        message: '{name}: not connected',
        fix: 'wait for the transport to reconnect (sensors shows its state), or check the robot or bridge',
      },
      goalId: {
        message: '{name}: {id} is not a goal UUID',
        fix: 'give the goal id as the UUID the navigation goal printed',
      },
      cancelRefused: {
        message: '{name}: {action} refused to cancel goal {id} ({reason})',
        fix: "stop the robot by hand if it still moves; the action server's log says why it refused",
      },
      wholeNumber: {
        message: '{where} must be a whole number, got {value}',
        fix: 'give a whole number (no decimals) in the profile value the message names',
      },
      rosbridgeOpen: {
        message: 'cannot open a connection to rosbridge at {url}: {reason}; fix [ros2] url',
        fix: 'fix [ros2] url (ws://host:9090), or start rosbridge_server on the robot',
      },
      rosbridgeUnreachable: {
        message:
          'cannot reach rosbridge at {url} within {timeoutMs} ms ({last}); start rosbridge_server on the robot or fix [ros2] url',
        fix: 'start rosbridge_server on the robot (ros2 launch rosbridge_server rosbridge_websocket_launch.xml), or fix [ros2] url',
      },
      closedNotSent: {
        message: '{name}: closed; {what} was not sent',
        fix: 'nothing to do during shutdown; otherwise restart mira',
      },
      notConnectedNotSent: {
        message: '{name}: not connected ({why}); {what} was not sent and is not queued',
        fix: 'wait for the transport to reconnect, then send it again; commands are never queued while disconnected',
      },
      serviceFailed: {
        message: '{name}: service {service} failed: {reason}',
        fix: "check the service's node: its log says why it failed",
      },
      closedDuringCall: {
        message: '{name}: the connection closed during the call to {service}',
        fix: 'check the robot or bridge connection, then call the service again',
      },
      closedGoalNotSent: {
        message: '{name}: closed; the goal was not sent',
        fix: 'nothing to do during shutdown; otherwise restart mira and send the goal again',
      },
      closedDuringGoal: {
        message:
          '{name}: the connection closed while the goal to {action} was running; the robot may still be pursuing it',
        fix: 'check the robot: cancel its goal on the robot side if it still moves, then reconnect',
      },
      closed: {
        message: '{name}: the transport is closed',
        fix: 'nothing to do during shutdown; otherwise restart mira',
      },
      publishNotConnected: {
        message: '{name}: cannot publish on {topic}: not connected',
        fix: 'wait for the transport to reconnect (sensors shows its state), then try again',
      },
      simClosed: {
        message: 'sim: the transport is closed',
        fix: 'nothing to do during shutdown; otherwise restart mira',
      },
      simPublishClosed: {
        message: 'sim: cannot publish on {topic}: the transport is closed',
        fix: 'nothing to do during shutdown; otherwise restart mira',
      },
    },
  },
  SERVICE_TIMEOUT: {
    code: 'MIRA_ERR_HARDWARE_SERVICE_TIMEOUT',
    message: 'a ROS service did not answer in time',
    fix: 'check that the service is offered and the node is alive',
    situations: {
      serviceUnavailable: {
        message: '{name}: service {service} is not available within {timeoutMs} ms',
        fix: 'start the node that offers the service, or check its name in the profile (ros2 service list)',
      },
      noActionServer: {
        message: '{name}: no action server on {action}',
        fix: "start the action server (Nav2's bt_navigator for navigate_to_pose), or fix the action's name in the profile",
      },
      serviceNoAnswer: {
        message: '{name}: service {service} did not answer within {timeoutMs} ms',
        fix: "check that the service's node is alive and not blocked (ros2 node list), then try again",
      },
      simServiceNoAnswer: {
        message: 'sim: no service {service} answered within {timeoutMs} ms',
        fix: 'register the service in the simulator, or check its name',
      },
    },
  },
  SKILL_INVALID: {
    code: 'MIRA_ERR_HARDWARE_SKILL_INVALID',
    message: 'a skill in the profile cannot be offered',
    fix: 'change or remove that skill table (docs/robots.md, "Skills the profile allows")',
    situations: {
      profile: {
        message: 'skill {id} in the profile cannot be offered: {why}',
        fix: 'change or remove the skill table with that id (docs/robots.md, "Skills the profile allows")',
      },
    },
  },
  UNSUPPORTED_MESSAGE: {
    code: 'MIRA_ERR_HARDWARE_UNSUPPORTED_MESSAGE',
    message: 'a message type is not one Mira understands',
    fix: 'map the sensor to one of the supported standard message types',
    situations: {
      servicesBetweenThreads: {
        message: '{name}: services are not carried between threads',
        fix: 'call services from the main runtime, not through the safety worker',
      },
      callBetweenThreads: {
        message: '{name}: cannot call {service}: services are not carried between threads',
        fix: 'call services from the main runtime, not through the safety worker',
      },
    },
  },
});

/** The codes of `@mira/robot` by key. */
export const HardwareErrorCodes = HardwareErrors.codes;
/** Every error code of `@mira/robot`. */
export type HardwareErrorCode = (typeof HardwareErrorCodes)[keyof typeof HardwareErrorCodes];
