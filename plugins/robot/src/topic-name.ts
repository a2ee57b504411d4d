/**
 * A ROS 2 topic name: absolute (`/cmd_vel`), relative to the node's namespace (`cmd_vel`) or private to
 * the node (`~/events`). Relative names resolve when the node's namespace is known.
 */
export const TOPIC_NAME_PATTERN = '^(/|~/)?[A-Za-z][A-Za-z0-9_]*(/[A-Za-z][A-Za-z0-9_]*)*$';
