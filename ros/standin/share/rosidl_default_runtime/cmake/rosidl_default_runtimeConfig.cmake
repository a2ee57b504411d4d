# Stand-in for ROS 2's rosidl_default_runtime (not in Debian 12).
find_package(rosidl_runtime_c REQUIRED)
find_package(rosidl_runtime_cpp REQUIRED)
set(rosidl_default_runtime_FOUND TRUE)
