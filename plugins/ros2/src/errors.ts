import { defineErrors } from '@mira/core';

/** The errors of `@mira/plugin-ros2` itself (its transports report `@mira/robot`'s). */
export const Ros2Errors = defineErrors('@mira/plugin-ros2', {
  ARGS_INVALID: {
    code: 'MIRA_ERR_ROS2_ARGS_INVALID',
    message: 'the arguments after --ros-args are not valid ROS 2 arguments (rcl would refuse them too)',
    fix: 'fix the rule the message quotes: a namespace is fully qualified (-r __ns:=/robot1), a node name is one token (-r __node:=mira_1)',
  },
});

/** The codes of `@mira/plugin-ros2` by key. */
export const Ros2ErrorCodes = Ros2Errors.codes;
