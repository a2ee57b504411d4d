import type { GraphEntry, RobotTransport, RosGraph } from '@mira/robot';

/**
 * rosapi's services this graph reads (rosbridge_suite, ros2 branch: `rosapi/scripts/rosapi_node`
 * `register_services`, types in `rosapi_msgs/srv/`), each answered from the graph rosapi's node sees:
 *
 * - `/rosapi/topics` (`Topics`: → `topics[]`, `types[]`, the first type of each; hidden topics left out);
 * - `/rosapi/nodes` (`Nodes`: → `nodes[]`, full names);
 * - `/rosapi/services` (`Services`: → `services[]`, names only), then `/rosapi/service_type`
 *   (`ServiceType`: `service` → `type`, "" for one it does not have) for each;
 * - `/rosapi/action_servers` (`GetActionServers`: → `action_servers[]`: the names under which both
 *   `_action/feedback` and `_action/status` topics exist; rosapi has no service that gives an action's type).
 *
 * rosapi's `get_param_names` and `get_param` are not used: the first asks every node of the graph in turn
 * (`rosapi/params.py`, up to 5 s each) and the second gives a value as JSON text without its type; a node's
 * own parameter services (`<node>/list_parameters`, `<node>/get_parameters`) answer both, through the
 * bridge and natively alike.
 */
export const ROSAPI_SERVICES = {
  topics: ['/rosapi/topics', 'rosapi_msgs/srv/Topics'],
  nodes: ['/rosapi/nodes', 'rosapi_msgs/srv/Nodes'],
  services: ['/rosapi/services', 'rosapi_msgs/srv/Services'],
  serviceType: ['/rosapi/service_type', 'rosapi_msgs/srv/ServiceType'],
  actionServers: ['/rosapi/action_servers', 'rosapi_msgs/srv/GetActionServers'],
} as const;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** The ROS graph through rosapi, over a bridge transport's service calls. */
export function rosapiGraph(transport: Pick<RobotTransport, 'callService'>, timeoutMs: number): RosGraph {
  const call = (which: keyof typeof ROSAPI_SERVICES, request: Record<string, unknown> = {}) => {
    const [service, type] = ROSAPI_SERVICES[which];
    return transport.callService(service, type, request, timeoutMs);
  };
  return {
    async topics(): Promise<GraphEntry[]> {
      const { topics, types } = await call('topics');
      const typeList = strings(types);
      return strings(topics).map((name, i) => ({ name, type: typeList[i] ?? '' }));
    },
    async nodes() {
      return strings((await call('nodes')).nodes);
    },
    async services() {
      const names = strings((await call('services')).services);
      const types = await Promise.all(
        names.map(async (service) => String((await call('serviceType', { service })).type ?? '')),
      );
      return names.map((name, i) => ({ name, type: types[i]! }));
    },
    async actions() {
      return strings((await call('actionServers')).action_servers);
    },
  };
}
