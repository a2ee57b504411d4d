"""Starts Mira on a robot profile as a ROS 2 node.

    ros2 launch mira_bringup mira.launch.py profile:=/opt/mira/profiles/mira namespace:=/robot1

Mira is a Node.js program, not a ROS package executable: the launch file runs `mira run` (headless:
no console, stdin ignored; `mira_command`, default `npx mira` in `mira_dir`) and passes the node's namespace and name as
--ros-args, as for any ROS node. The profile's [ros2] table maps the robot's topics; relative topic
names resolve under the namespace.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess
from launch.substitutions import LaunchConfiguration


def generate_launch_description():
    profile = LaunchConfiguration('profile')
    namespace = LaunchConfiguration('namespace')
    node_name = LaunchConfiguration('node_name')
    mira_dir = LaunchConfiguration('mira_dir')
    mira_command = LaunchConfiguration('mira_command')
    return LaunchDescription([
        DeclareLaunchArgument('profile', description='The robot profile directory or profile.toml'),
        DeclareLaunchArgument('namespace', default_value='', description='The node namespace, e.g. /robot1'),
        DeclareLaunchArgument('node_name', default_value='mira', description='The node name'),
        DeclareLaunchArgument('mira_dir', default_value='.', description='Where Mira is installed (npm ci ran there)'),
        DeclareLaunchArgument('mira_command', default_value='npx mira', description='How to run the mira command'),
        ExecuteProcess(
            cmd=[
                mira_command, 'run', '--profile', profile,
                '--ros-args', '-r', ['__ns:=', namespace], '-r', ['__node:=', node_name],
            ],
            cwd=mira_dir,
            shell=True,
            output='screen',
            emulate_tty=True,
        ),
    ])
