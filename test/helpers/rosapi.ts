/**
 * The ROS side of the in-test rosbridge server's graph, and rosapi's answers about it, as rosbridge_suite's
 * ros2 branch gives them (`rosapi/scripts/rosapi_node`, `rosapi/src/rosapi/proxy.py`, types in
 * `rosapi_msgs/srv/`): what the standard launch file (`rosbridge_websocket_launch.xml`) brings up — the
 * nodes `/rosbridge_websocket`, `/rosapi` and `/rosapi_params` (`rosapi/params.py` makes it, without
 * parameter services), the topics `/rosout`, `/parameter_events` (every rclpy node) and `/client_count`
 * (`rosbridge_websocket.py`), rosapi's services and each rclpy node's parameter services — plus what a
 * test puts on the robot: nodes with parameters, topics, services, action servers.
 */

/** rcl_interfaces/msg/ParameterValue with every field, as the bridge writes the message out. */
export function parameterValue(value: boolean | number | string | number[] | string[], integer = false) {
  const base = {
    type: 0,
    bool_value: false,
    integer_value: 0,
    double_value: 0,
    string_value: '',
    byte_array_value: [] as number[],
    bool_array_value: [] as boolean[],
    integer_array_value: [] as number[],
    double_array_value: [] as number[],
    string_array_value: [] as string[],
  };
  if (typeof value === 'boolean') return { ...base, type: 1, bool_value: value };
  if (typeof value === 'number')
    return integer ? { ...base, type: 2, integer_value: value } : { ...base, type: 3, double_value: value };
  if (typeof value === 'string') return { ...base, type: 4, string_value: value };
  if (value.every((v) => typeof v === 'string')) return { ...base, type: 9, string_array_value: value as string[] };
  return integer
    ? { ...base, type: 7, integer_array_value: value as number[] }
    : { ...base, type: 8, double_array_value: value as number[] };
}
export type ParameterValue = ReturnType<typeof parameterValue>;

/** The parameter services rclpy gives every node (`start_parameter_services=True`, the default). */
const PARAMETER_SERVICES: ReadonlyArray<readonly [string, string]> = [
  ['describe_parameters', 'rcl_interfaces/srv/DescribeParameters'],
  ['get_parameter_types', 'rcl_interfaces/srv/GetParameterTypes'],
  ['get_parameters', 'rcl_interfaces/srv/GetParameters'],
  ['list_parameters', 'rcl_interfaces/srv/ListParameters'],
  ['set_parameters', 'rcl_interfaces/srv/SetParameters'],
  ['set_parameters_atomically', 'rcl_interfaces/srv/SetParametersAtomically'],
];

/** rosapi_node's services (`register_services`), by name, with their types. */
const ROSAPI_SERVICES: ReadonlyArray<readonly [string, string]> = [
  ['topics', 'Topics'],
  ['topics_for_type', 'TopicsForType'],
  ['topics_and_raw_types', 'TopicsAndRawTypes'],
  ['services', 'Services'],
  ['services_for_type', 'ServicesForType'],
  ['nodes', 'Nodes'],
  ['node_details', 'NodeDetails'],
  ['action_servers', 'GetActionServers'],
  ['topic_type', 'TopicType'],
  ['service_type', 'ServiceType'],
  ['publishers', 'Publishers'],
  ['subscribers', 'Subscribers'],
  ['service_providers', 'ServiceProviders'],
  ['service_node', 'ServiceNode'],
  ['message_details', 'MessageDetails'],
  ['service_request_details', 'ServiceRequestDetails'],
  ['service_response_details', 'ServiceResponseDetails'],
  ['set_param', 'SetParam'],
  ['get_param', 'GetParam'],
  ['has_param', 'HasParam'],
  ['delete_param', 'DeleteParam'],
  ['get_param_names', 'GetParamNames'],
  ['get_time', 'GetTime'],
  ['get_ros_version', 'GetROSVersion'],
];

/** A service on the ROS side: its type and how it answers (values of the response message). */
export interface RosSideService {
  readonly type: string;
  readonly answer?: (args: Record<string, unknown>) => Record<string, unknown>;
}

/** rcl_interfaces/msg/ParameterType as rclpy names it in its messages (`Parameter.Type`). */
const RCLPY_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'Type.BOOL',
  2: 'Type.INTEGER',
  3: 'Type.DOUBLE',
  4: 'Type.STRING',
  5: 'Type.BYTE_ARRAY',
  6: 'Type.BOOL_ARRAY',
  7: 'Type.INTEGER_ARRAY',
  8: 'Type.DOUBLE_ARRAY',
  9: 'Type.STRING_ARRAY',
};

/**
 * rclpy's SetParameters service (`rclpy/parameter_service.py` `_set_parameters_callback`: each parameter through
 * `Node.set_parameters_atomically`, one SetParametersResult each): an undeclared parameter is refused
 * (`ParameterNotDeclaredException`, the default `allow_undeclared_parameters=False`), and one of another type
 * than declared too (statically typed, `Node._check_parameter_types`: "Wrong parameter type, expected
 * 'Type.DOUBLE' got 'Type.INTEGER'"), as `ros2 param set` shows them. The bridge fills the fields a request
 * leaves out with their defaults (`message_conversion.py` `populate_instance`).
 */
function setParameters(parameters: Record<string, ParameterValue>, args: Record<string, unknown>) {
  return ((args.parameters as Array<{ name: string; value?: Partial<ParameterValue> }> | undefined) ?? []).map(
    ({ name, value }) => {
      const current = parameters[name];
      if (!current) return { successful: false, reason: `Invalid access to undeclared parameter(s): ['${name}']` };
      const given = { ...parameterValue(''), type: 0, ...value } as ParameterValue;
      if (given.type !== current.type) {
        return {
          successful: false,
          reason: `Wrong parameter type, expected '${RCLPY_TYPE_NAMES[current.type]}' got '${RCLPY_TYPE_NAMES[given.type] ?? 'Type.NOT_SET'}'`,
        };
      }
      parameters[name] = given;
      return { successful: true, reason: '' };
    },
  );
}

/** ros2cli's `topic_or_service_is_hidden`, which rosapi applies (`include_hidden=False`). */
const hidden = (name: string) => name.split('/').some((part) => part.startsWith('_'));

/** The graph behind the bridge, and rosapi's answers about it. */
export class RosSideGraph {
  readonly nodes: string[] = [];
  readonly services = new Map<string, RosSideService>();
  /** Action servers: `<action>/_action/feedback` and `status` topics and the three services exist for each. */
  readonly actions = new Map<string, string>();

  constructor(
    readonly topicTypes: Map<string, string>,
    rosapi: boolean,
  ) {
    this.topicTypes.set('/rosout', 'rcl_interfaces/msg/Log');
    this.topicTypes.set('/parameter_events', 'rcl_interfaces/msg/ParameterEvent');
    this.topicTypes.set('/client_count', 'std_msgs/msg/Int32');
    this.addNode('/rosbridge_websocket', {});
    if (rosapi) {
      this.addNode('/rosapi', {});
      // rosapi/params.py: start_parameter_services=False.
      this.nodes.push('/rosapi_params');
      for (const [name, type] of ROSAPI_SERVICES)
        this.services.set(`/rosapi/${name}`, { type: `rosapi_msgs/srv/${type}` });
    }
  }

  /** A node with rclpy's parameter services, answering list_parameters and get_parameters from `parameters`. */
  addNode(name: string, given: Record<string, ParameterValue>): void {
    // rclpy's TimeSource declares use_sim_time on every node.
    const parameters: Record<string, ParameterValue> = { use_sim_time: parameterValue(false), ...given };
    this.nodes.push(name);
    for (const [service, type] of PARAMETER_SERVICES) {
      let answer: RosSideService['answer'];
      if (service === 'list_parameters') answer = () => ({ result: { names: Object.keys(parameters), prefixes: [] } });
      if (service === 'get_parameters')
        answer = (args) => ({
          values: ((args.names as string[] | undefined) ?? []).map(
            (n) => parameters[n] ?? { ...parameterValue(''), type: 0 },
          ),
        });
      if (service === 'set_parameters') answer = (args) => ({ results: setParameters(parameters, args) });
      this.services.set(`${name}/${service}`, { type, ...(answer ? { answer } : {}) });
    }
  }

  addAction(name: string, type: string): void {
    this.actions.set(name, type);
    const [pkg, , base] = type.split('/');
    this.topicTypes.set(`${name}/_action/feedback`, `${pkg}/action/${base}_FeedbackMessage`);
    this.topicTypes.set(`${name}/_action/status`, 'action_msgs/msg/GoalStatusArray');
    this.services.set(`${name}/_action/send_goal`, { type: `${pkg}/action/${base}_SendGoal` });
    this.services.set(`${name}/_action/get_result`, { type: `${pkg}/action/${base}_GetResult` });
    this.services.set(`${name}/_action/cancel_goal`, { type: 'action_msgs/srv/CancelGoal' });
  }

  /**
   * rosapi's answer to `service` (values of the response), or undefined when it is not one of the four it
   * serves here; `clientServices` are the services bridge clients advertised (in the graph too).
   */
  rosapi(
    service: string,
    args: Record<string, unknown>,
    clientServices: ReadonlyMap<string, string>,
  ): Record<string, unknown> | undefined {
    const services = new Map<string, string>([
      ...[...this.services].map(([n, s]) => [n, s.type] as [string, string]),
      ...clientServices,
    ]);
    switch (service) {
      case '/rosapi/topics': {
        const visible = [...this.topicTypes].filter(([name]) => !hidden(name));
        return { topics: visible.map(([n]) => n), types: visible.map(([, t]) => t) };
      }
      case '/rosapi/nodes':
        return { nodes: [...this.nodes] };
      case '/rosapi/services':
        return { services: [...services.keys()].filter((n) => !hidden(n)) };
      case '/rosapi/service_type': {
        const name = String(args.service ?? '');
        return { type: hidden(name) ? '' : (services.get(name) ?? '') };
      }
      case '/rosapi/action_servers': {
        // proxy.filter_action_servers over every topic, hidden ones included: both feedback and status.
        const names = [...this.topicTypes.keys()].sort();
        const found: string[] = [];
        for (const topic of names) {
          const match = /^(.+)\/_action\/status$/.exec(topic);
          if (match && names.includes(`${match[1]}/_action/feedback`)) found.push(match[1]!);
        }
        return { action_servers: found };
      }
      default:
        return undefined;
    }
  }
}
