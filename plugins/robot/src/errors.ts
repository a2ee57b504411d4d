import { defineErrors } from '@mira/core';

/** The errors of `@mira/robot`: the hardware layer every robot transport shares. */
export const HardwareErrors = defineErrors('@mira/robot', {
  TRANSPORT_UNAVAILABLE: {
    code: 'MIRA_ERR_HARDWARE_TRANSPORT_UNAVAILABLE',
    message: 'the robot transport cannot be used here (e.g. rclnodejs without a sourced ROS 2)',
    fix: 'source ROS 2 before starting, or use transport = "rosbridge"',
  },
  TRANSPORT_FAILED: {
    code: 'MIRA_ERR_HARDWARE_TRANSPORT_FAILED',
    message: 'the robot transport failed or is closed',
    fix: 'check the robot or bridge connection the message names',
  },
  SERVICE_TIMEOUT: {
    code: 'MIRA_ERR_HARDWARE_SERVICE_TIMEOUT',
    message: 'a ROS service did not answer in time',
    fix: 'check that the service is offered and the node is alive',
  },
  UNSUPPORTED_MESSAGE: {
    code: 'MIRA_ERR_HARDWARE_UNSUPPORTED_MESSAGE',
    message: 'a message type is not one Mira understands',
    fix: 'map the sensor to one of the supported standard message types',
  },
});

/** The codes of `@mira/robot` by key. */
export const HardwareErrorCodes = HardwareErrors.codes;
/** Every error code of `@mira/robot`. */
export type HardwareErrorCode = (typeof HardwareErrorCodes)[keyof typeof HardwareErrorCodes];
