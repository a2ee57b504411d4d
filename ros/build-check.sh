#!/usr/bin/env bash
# Builds ros/mira_interfaces and ros/mira_bringup with colcon, as a ROS 2 workspace would, so a broken
# package.xml, CMakeLists.txt, setup.py or .srv fails CI. Debian 12 packages ROS 2's build tooling
# (colcon, ament_cmake, rosidl's C and C++ generators) but not rosidl_default_generators nor
# rosidl_default_runtime: ros/standin holds stand-ins for those two, which find the generators Debian
# has (C and C++ with introspection; no Python or DDS type support). Needs the Debian packages .ci/run
# installs. Usage: bash ros/build-check.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ws="$(mktemp -d)"
trap 'rm -rf "$ws"' EXIT
mkdir -p "$ws/src"
cp -r "$here/mira_interfaces" "$here/mira_bringup" "$ws/src/"
cd "$ws"
# Debian's ament and rosidl Python modules are the system Python's, whatever python3 is first on PATH.
PATH="/usr/bin:$PATH" CMAKE_PREFIX_PATH="$here/standin" colcon build \
  --event-handlers console_direct- \
  --cmake-args -DPython3_EXECUTABLE=/usr/bin/python3 -DPYTHON_EXECUTABLE=/usr/bin/python3 \
  > "$ws/build.log" 2>&1 || { cat "$ws/build.log"; echo "ros/: colcon build failed" >&2; exit 1; }
# What the packages promise, installed where ROS 2 finds it.
for file in \
  install/mira_interfaces/include/mira_interfaces/mira_interfaces/srv/recall.h \
  install/mira_interfaces/include/mira_interfaces/mira_interfaces/srv/recall.hpp \
  install/mira_interfaces/share/mira_interfaces/srv/Recall.srv \
  install/mira_interfaces/share/ament_index/resource_index/packages/mira_interfaces \
  install/mira_bringup/share/mira_bringup/launch/mira.launch.py \
  install/mira_bringup/share/ament_index/resource_index/packages/mira_bringup; do
  [ -e "$file" ] || { echo "ros/: colcon build did not install $file" >&2; exit 1; }
done
echo "ros/: mira_interfaces and mira_bringup build with colcon"
