# Stand-in for ROS 2's rosidl_default_generators, which Debian 12 does not package: the generators
# Debian has (C and C++ with their introspection type support).
find_package(rosidl_cmake REQUIRED)
find_package(rosidl_generator_c REQUIRED)
find_package(rosidl_generator_cpp REQUIRED)
find_package(rosidl_typesupport_introspection_c REQUIRED)
find_package(rosidl_typesupport_introspection_cpp REQUIRED)
set(rosidl_default_generators_FOUND TRUE)
