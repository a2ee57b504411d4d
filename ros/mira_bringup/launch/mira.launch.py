"""Starts Mira on a robot profile as a ROS 2 node.

    ros2 launch mira_bringup mira.launch.py profile:=/opt/mira/profiles/mira namespace:=/robot1 \
        mira_dir:=/opt/mira

Mira is a Node.js program, not a ROS package executable: the launch file runs `mira run` (headless: no
console, stdin ignored) directly, without a shell, so SIGINT and SIGTERM from `ros2 launch` reach Mira
itself and take its orderly stop (the drive zeroed, the stores closed). Arguments are passed as a list,
so a profile path with spaces stays one argument. The node's namespace and name go as --ros-args, as for
any ROS node (no `__ns` at all for the empty namespace, which rcl would refuse).

Launch arguments:
  profile        the robot profile directory or profile.toml (required)
  namespace      the node namespace, e.g. /robot1 (default: none)
  node_name      the node name (default: mira)
  mira_dir       where Mira is installed, `npm ci` run there (default: the current directory)
  mira_command   the mira program, split into words as a shell would but run without one
                 (default: node_modules/.bin/mira, relative to mira_dir)
  extra_args     more arguments for mira before its --ros-args, split the same way
  ros_args       more --ros-args rules, split the same way ("-r cmd_vel:=/base/cmd_vel --log-level warn")
  respawn        true: start Mira again when it exits (default: false)
  respawn_delay  seconds to wait before respawning (default: 2.0)
"""
import shlex

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess, OpaqueFunction


def mira_command(values):
    """The command line, as a list of arguments, for the launch arguments' values (a dict of strings)."""
    cmd = shlex.split(values['mira_command']) + ['run', '--profile', values['profile']]
    cmd += shlex.split(values['extra_args'])
    ros_args = []
    if values['namespace']:
        ros_args += ['-r', '__ns:=' + values['namespace']]
    if values['node_name']:
        ros_args += ['-r', '__node:=' + values['node_name']]
    ros_args += shlex.split(values['ros_args'])
    if ros_args:
        cmd += ['--ros-args'] + ros_args
    return cmd


def _launch_mira(context):
    names = ['profile', 'namespace', 'node_name', 'mira_dir', 'mira_command', 'extra_args', 'ros_args',
             'respawn', 'respawn_delay']
    values = {name: context.launch_configurations.get(name, '') for name in names}
    return [
        ExecuteProcess(
            cmd=mira_command(values),
            cwd=values['mira_dir'],
            shell=False,
            output='screen',
            emulate_tty=True,
            respawn=values['respawn'].lower() in ('true', '1', 'yes'),
            respawn_delay=float(values['respawn_delay']),
            # launch sends SIGINT on shutdown and SIGTERM after this; Mira's orderly stop is well within it.
            sigterm_timeout='10',
            sigkill_timeout='10',
        )
    ]


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('profile', description='The robot profile directory or profile.toml'),
        DeclareLaunchArgument('namespace', default_value='', description='The node namespace, e.g. /robot1'),
        DeclareLaunchArgument('node_name', default_value='mira', description='The node name'),
        DeclareLaunchArgument('mira_dir', default_value='.', description='Where Mira is installed (npm ci ran there)'),
        DeclareLaunchArgument('mira_command', default_value='node_modules/.bin/mira',
                              description='The mira program (run without a shell)'),
        DeclareLaunchArgument('extra_args', default_value='', description='More arguments for mira'),
        DeclareLaunchArgument('ros_args', default_value='', description='More --ros-args rules'),
        DeclareLaunchArgument('respawn', default_value='false', description='Start Mira again when it exits'),
        DeclareLaunchArgument('respawn_delay', default_value='2.0', description='Seconds before respawning'),
        OpaqueFunction(function=_launch_mira),
    ])
