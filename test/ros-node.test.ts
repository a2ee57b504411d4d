import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { startScriptedModelServer, withoutGrounding, type ScriptedModelServer } from '@mira/core/testing';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { parse as parseYaml } from 'yaml';
import {
  RosArgsError,
  RosbridgeTransport,
  parseRosArgs,
  readParamsFile,
  remapName,
  resolveName,
} from '@mira/plugin-ros2';
import type { RosMessage } from '@mira/robot';
import { runMira } from './helpers/run-mira.js';
import { MiraProcess } from './helpers/mira-process.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

describe('ROS names and arguments', () => {
  it('resolves names as ROS 2 does for a node', () => {
    expect(resolveName('/cmd_vel', '/robot1', 'mira')).to.equal('/cmd_vel');
    expect(resolveName('cmd_vel', '/robot1', 'mira')).to.equal('/robot1/cmd_vel');
    expect(resolveName('~/reply', '/robot1', 'mira')).to.equal('/robot1/mira/reply');
    expect(resolveName('cmd_vel', '', 'mira')).to.equal('/cmd_vel');
    expect(resolveName('~/events', '/', 'mira')).to.equal('/mira/events');
  });

  it('reads the arguments launch files pass, as rcl reads them', () => {
    expect(
      parseRosArgs(
        [
          '-r',
          '__ns:=/robot1',
          '--remap',
          '__node:=mira2',
          '-p',
          'use_sim_time:=true',
          '--params-file',
          'p.yaml',
          '-r',
          'cmd_vel:=/base/cmd_vel',
          '-r',
          'mira:rosservice://~/recall:=/memory/recall',
          '-r',
          'other_node:odom:=/elsewhere',
          '--log-level',
          'WARN',
          '--log-level',
          'rcl:=debug',
          '--disable-rosout-logs',
          '--disable-stdout-logs',
          '--enclave',
          '/e',
          '--bogus',
        ],
        'mira',
      ),
    ).to.deep.equal({
      namespace: '/robot1',
      nodeName: 'mira2',
      remaps: [
        { applies: 'both', match: 'cmd_vel', replacement: '/base/cmd_vel' },
        { node: 'mira', applies: 'service', match: '~/recall', replacement: '/memory/recall' },
      ],
      params: { use_sim_time: 'true' },
      paramsFiles: ['p.yaml'],
      logLevel: 'warn',
      loggerLevels: { rcl: 'debug' },
      rosoutLogs: false,
      unused: ['--disable-stdout-logs', '--enclave /e', '--bogus'],
    });
    // The root namespace and a trailing slash are fully qualified; the last rule wins.
    expect(parseRosArgs(['-r', '__ns:=/']).namespace).to.equal('/');
    expect(parseRosArgs(['-r', '__ns:=/a', '-r', '__ns:=/robot1/']).namespace).to.equal('/robot1');
    expect(parseRosArgs(['--disable-rosout-logs', '--enable-rosout-logs']).rosoutLogs).to.equal(true);
  });

  it("refuses what rcl refuses, in rcl's words", () => {
    const refusal = (args: string[]) => {
      try {
        parseRosArgs(args, 'mira');
      } catch (error) {
        expect(error).to.be.instanceOf(RosArgsError);
        return [(error as RosArgsError).message, (error as RosArgsError).warning];
      }
      throw new Error(`${args.join(' ')} was accepted`);
    };
    expect(refusal(['-r', '__ns:=robot1'])).to.deep.equal([
      "Couldn't parse remap rule: '-r __ns:=robot1'. Error: Namespace not remapped to a fully qualified name (found: robot1)",
      'Namespace not remapped to a fully qualified name (found: robot1)',
    ]);
    expect(refusal(['-r', '__ns:='])[1]).to.equal('Namespace not remapped to a fully qualified name (found: )');
    expect(refusal(['-r', '__ns:=/robot-1'])[1]).to.equal(
      'Namespace not remapped to a fully qualified name (found: /robot-1)',
    );
    expect(refusal(['-r', '__ns:=//a'])[1]).to.equal('Namespace not remapped to a fully qualified name (found: //a)');
    expect(refusal(['-r', '__node:=my-node'])[0]).to.equal(
      "Couldn't parse remap rule: '-r __node:=my-node'. Error: not a valid remap rule",
    );
    expect(refusal(['-r', '__node:=1mira'])).to.deep.equal([
      "Couldn't parse remap rule: '-r __node:=1mira'. Error: Node name not remapped to invalid name: '1mira'",
      "Node name not remapped to invalid name: '1mira'",
    ]);
    expect(refusal(['-r', '__node:=a__b'])[0]).to.match(/^Couldn't parse remap rule: '-r __node:=a__b'/);
    for (const rule of ['cmd_vel', 'cmd_vel:=', ':=x', 'a:=b:=c', 'cmd vel:=x', 'a//b:=c']) {
      expect(refusal(['-r', rule])[0], rule).to.equal(
        `Couldn't parse remap rule: '-r ${rule}'. Error: not a valid remap rule`,
      );
    }
    expect(refusal(['-r', 'a/*:=b'])[0]).to.equal(
      "Couldn't parse remap rule: '-r a/*:=b'. Error: Wildcard '*' is not implemented",
    );
    expect(refusal(['-r', 'a:=\\1'])[0]).to.match(/Backreferences are not implemented$/);
    expect(refusal(['-r'])[0]).to.equal("Couldn't parse trailing -r flag. No remap rule found.");
    expect(refusal(['-p', 'use-sim-time:=true'])[0]).to.match(
      /^Couldn't parse parameter override rule: '-p use-sim-time:=true'\. Error: /,
    );
    expect(refusal(['-p'])[0]).to.equal("Couldn't parse trailing -p flag. No parameter override rule found.");
    expect(refusal(['--log-level', 'loud'])[0]).to.equal(
      "Couldn't parse log level rule: '--log-level loud'. Error: Argument does not use a valid severity level: 'loud'",
    );
  });

  it('reads the parameters a --params-file gives this node, as rcl matches node names', () => {
    const file = `
/**:
  ros__parameters:
    use_sim_time: true
    shared: 1
other_node:
  ros__parameters:
    not_mine: 2
/robot1/mira:
  ros__parameters:
    limits: { max_speed: 0.5 }
    shared: 3
/*/mira:
  ros__parameters:
    one_level: true
/robot2/*:
  ros__parameters:
    elsewhere: true
`;
    expect(readParamsFile('p.yaml', file, '/robot1/mira', parseYaml)).to.deep.equal({
      use_sim_time: true,
      shared: 3,
      'limits.max_speed': 0.5,
      one_level: true,
    });
    expect(readParamsFile('p.yaml', 'mira:\n  ros__parameters:\n    a: 1\n', '/deep/ns/mira', parseYaml)).to.deep.equal(
      { a: 1 },
    );
    expect(readParamsFile('p.yaml', '', '/mira', parseYaml)).to.deep.equal({});
    const refused = (text: string | undefined) => {
      try {
        readParamsFile('p.yaml', text, '/mira', parseYaml);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused(undefined)).to.equal(
      "Couldn't parse params file: '--params-file p.yaml'. Error: Error opening YAML file",
    );
    expect(refused('- a\n- b\n')).to.match(/^Couldn't parse params file: '--params-file p\.yaml'\. Error: /);
    expect(refused('/**:\n  ros__parameters: [1]\n')).to.contain('ros__parameters of /** is not a map');
    expect(refused('a: [')).to.match(/^Couldn't parse params file/);
  });

  it('remaps names as rcl does: expanded for the node, topic or service, the first matching rule', () => {
    const { remaps } = parseRosArgs(
      [
        '-r',
        'cmd_vel:=/base/cmd_vel',
        '-r',
        'rostopic://~/reply:=chat',
        '-r',
        'rosservice://~/recall:=/memory/recall',
        '-r',
        'cmd_vel:=/never',
      ],
      'mira',
    );
    const expand = (n: string) => resolveName(n, '/robot1', 'mira');
    const at = (n: string, kind: 'topic' | 'service' = 'topic') => remapName(expand(n), remaps, kind, expand);
    expect(at('cmd_vel')).to.equal('/base/cmd_vel');
    expect(at('/robot1/cmd_vel')).to.equal('/base/cmd_vel');
    expect(at('/cmd_vel')).to.equal('/cmd_vel');
    expect(at('~/reply')).to.equal('/robot1/chat');
    expect(at('~/reply', 'service')).to.equal('/robot1/mira/reply');
    expect(at('~/recall', 'service')).to.equal('/memory/recall');
    expect(at('~/recall')).to.equal('/robot1/mira/recall');
    expect(at('odom')).to.equal('/robot1/odom');
  });
});

describe('Mira as a ROS 2 node (real process, strict in-test bridge, another client)', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let model: ScriptedModelServer;
  let dir: string;
  let client: RosbridgeTransport;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    model = await startScriptedModelServer();
    dir = mkdtempSync(join(tmpdir(), 'mira-node-'));
    const store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
    await store.createMemory({
      kind: 'preference',
      summary: 'Ada prefers tea',
      predicate: 'prefers',
      value: 'tea',
      sourceKind: 'console',
      links: [{ entityId: ada.id, role: 'subject' }],
    });
    await store.close();
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: {
          name: 'Mira',
          plugins: ['@mira/plugin-ros2', '@mira/plugin-memory', '@mira/plugin-memory-tools', '@mira/plugin-openai'],
        },
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          sensors: [{ id: 'battery', topic: 'battery_state', type: 'sensor_msgs/msg/BatteryState' }],
          node: { utterances: true },
        },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        openai: { model: 'scripted', base_url: model.url, max_retries: 0 },
      }),
    );
    client = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await client.connect();
  });
  afterEach(async () => {
    await client.close();
    await bridge.close();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes utterances, publishes replies and events, answers ~/recall, all under its namespace', async () => {
    const mira = new MiraProcess(dir, {}, ['--ros-args', '-r', '__ns:=/robot1', '-r', '__node:=mira']);
    try {
      const replies: RosMessage[] = [];
      const events: Array<Record<string, unknown>> = [];
      client.subscribe('/robot1/mira/reply', 'std_msgs/msg/String', (m) => replies.push(m));
      client.subscribe('/robot1/mira/events', 'std_msgs/msg/String', (m) => events.push(JSON.parse(String(m.data))));
      await mira.until(() => bridge.subscribers('/robot1/mira/utterance') > 0 || undefined, 'the node to subscribe');
      // A relative sensor topic resolved under the namespace.
      expect(bridge.subscribers('/robot1/battery_state')).to.equal(1);
      model.push({ toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada' } }] }, { text: 'Ada prefers tea.' });
      await client.publish('/robot1/mira/utterance', 'std_msgs/msg/String', { data: 'What does Ada drink?' });
      await mira.until(() => (replies.length > 0 ? replies : undefined), 'the reply');
      expect(replies).to.deep.equal([{ data: 'Ada prefers tea.' }]);
      await mira.until(() => (events.some((e) => e.event === 'finished') ? true : undefined), 'the finished event');
      expect(events.map((e) => e.event)).to.deep.equal(['started', 'tool', 'finished']);
      expect(events[1]).to.deep.include({ tool: 'recall_memory', display: 'hit ENT1', origin: 'operator' });
      expect(events[2]).to.deep.include({ reply: 'Ada prefers tea.' });
      const opening = model.requests[0]!.body.messages.at(-1)!;
      expect(opening.role).to.equal('user');
      expect(withoutGrounding(opening.content!)).to.equal('What does Ada drink?');
      // The operator sees what another node said to the robot, and the answer.
      await mira.until(() => (mira.stdout.includes('Mira: Ada prefers tea.') ? true : undefined), 'the console lines');
      expect(mira.stdout).to.contain('[ros /robot1/mira/utterance] What does Ada drink?');

      const hit = await client.callService('/robot1/mira/recall', 'mira_interfaces/srv/Recall', { query: 'ada' }, 5000);
      expect(hit.status).to.equal('hit');
      expect(String(hit.text)).to.contain('ENT1 person "Ada"').and.to.contain('Ada prefers tea');
      const miss = await client.callService('/robot1/mira/recall', 'mira_interfaces/srv/Recall', { query: 'Ad' }, 5000);
      expect(miss.status).to.equal('miss');
      const rejected = await client.callService(
        '/robot1/mira/recall',
        'mira_interfaces/srv/Recall',
        { query: 'x'.repeat(300) },
        5000,
      );
      expect(rejected.status).to.equal('rejected');
      expect(bridge.logged).to.deep.equal([]);
    } finally {
      expect(await mira.quit()).to.equal(0);
    }
  });

  it('moves every name a remap rule names, and refuses at start-up a namespace rcl would refuse', async () => {
    const mira = new MiraProcess(dir, {}, [
      '--ros-args',
      '-r',
      '__ns:=/robot1',
      '-r',
      'battery_state:=/power/battery',
      '-r',
      'rostopic://~/reply:=/chat/reply',
      '-r',
      'mira:~/utterance:=/chat/said',
      '-r',
      'other:~/events:=/never',
      '-p',
      'max_speed:=0.5',
    ]);
    try {
      const replies: RosMessage[] = [];
      client.subscribe('/chat/reply', 'std_msgs/msg/String', (m) => replies.push(m));
      await mira.until(() => bridge.subscribers('/chat/said') > 0 || undefined, 'the node to subscribe');
      expect(bridge.subscribers('/power/battery')).to.equal(1);
      expect(bridge.subscribers('/robot1/battery_state')).to.equal(0);
      model.push({ text: 'Hello.' });
      await client.publish('/chat/said', 'std_msgs/msg/String', { data: 'Hi' });
      await mira.until(() => (replies.length > 0 ? replies : undefined), 'the reply on the remapped topic');
      expect(replies).to.deep.equal([{ data: 'Hello.' }]);
      // A parameter Mira does not read is said once, by name.
      expect(mira.stderr).to.contain('ROS arguments not used by Mira: -p max_speed:=0.5');
    } finally {
      expect(await mira.quit()).to.equal(0);
    }
    const refused = await runMira(['--profile', dir, '--ros-args', '-r', '__ns:=robot1'], '', { timeoutMs: 20_000 });
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain('Namespace not remapped to a fully qualified name (found: robot1)');
    expect(refused.stderr).to.contain(
      `mira: MIRA_ERR_ROS2_ARGS_INVALID: ${join(dir, 'profile.toml')}: plugin @mira/plugin-ros2: Couldn't parse remap rule: '-r __ns:=robot1'. Error: Namespace not remapped to a fully qualified name (found: robot1)`,
    );
  });

  it('publishes its log lines on /rosout under its logger name, with the Mind view token masked', async () => {
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', '@mira/plugin-mind-view'] },
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] },
        mind_view: { enabled: true, port: 0 },
      }),
    );
    const lines: RosMessage[] = [];
    client.subscribe('/rosout', 'rcl_interfaces/msg/Log', (m) => lines.push(m));
    const mira = new MiraProcess(dir, {}, ['--ros-args', '-r', '__ns:=/robot1', '-r', '__node:=mira']);
    try {
      const line = await mira.until(
        () => lines.find((l) => String(l.msg).includes('Mind view: http://')),
        'the Mind view line on /rosout',
      );
      expect(line).to.deep.include({ level: 20, name: 'robot1.mira', file: '', function: '', line: 0 });
      expect(String(line.msg)).to.match(/^\[@mira\/plugin-mind-view\] Mind view: http:\/\/127\.0\.0\.1:\d+\/#token=…$/);
      // The operator's own log still has the address to open.
      await mira.until(() => (/#token=[A-Za-z0-9_-]{16,}/.test(mira.stderr) ? true : undefined), 'the token on stderr');
      expect(Math.abs(Number((line.stamp as { sec: number }).sec) - Date.now() / 1000)).to.be.below(60);
      expect(bridge.logged).to.deep.equal([]);
    } finally {
      expect(await mira.quit()).to.equal(0);
    }
  });

  it('keeps lines off /rosout below --log-level, and all of them with --disable-rosout-logs', async () => {
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', '@mira/plugin-mind-view'] },
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] },
        mind_view: { enabled: true, port: 0 },
      }),
    );
    // Without either, the same line is on /rosout: what the check below reads is what a publication looks like.
    for (const args of [[], ['--log-level', 'warn'], ['--disable-rosout-logs']]) {
      const before = bridge.ops.length;
      const mira = new MiraProcess(dir, {}, ['--ros-args', '-r', '__ns:=/robot1', ...args]);
      try {
        // The info line is logged (stderr) and the node is up (its recall service offered)…
        await mira.until(() => (mira.stderr.includes('Mind view: http://') ? true : undefined), 'the Mind view line');
        await mira.until(
          () => (bridge.ops.slice(before).some((op) => op.op === 'advertise_service') ? true : undefined),
          'the recall service',
        );
        await new Promise((r) => setTimeout(r, 300));
        // …but nothing of it reached /rosout.
        const rosout = bridge.ops.slice(before).filter((op) => op.op === 'publish' && op.topic === '/rosout');
        if (args.length === 0) expect(rosout).to.have.length.above(0);
        else expect(rosout, args.join(' ')).to.deep.equal([]);
      } finally {
        expect(await mira.quit()).to.equal(0);
      }
    }
  });

  it('advertises its publishers at start, before anything is said, so the graph shows them', async () => {
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2'] },
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] },
      }),
    );
    const mira = new MiraProcess(dir, {}, ['--ros-args', '-r', '__ns:=/robot1']);
    try {
      const advertised = () =>
        Object.fromEntries(bridge.ops.filter((op) => op.op === 'advertise').map((op) => [op.topic, op.type]));
      await mira.until(() => (Object.keys(advertised()).length >= 3 ? true : undefined), 'the advertisements');
      expect(advertised()).to.deep.include({
        '/robot1/mira/reply': 'std_msgs/msg/String',
        '/robot1/mira/events': 'std_msgs/msg/String',
        '/rosout': 'rcl_interfaces/msg/Log',
      });
      expect(bridge.published('/robot1/mira/reply')).to.deep.equal([]);
    } finally {
      expect(await mira.quit()).to.equal(0);
    }
  });

  it('does not listen to utterances unless the profile says so', async () => {
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2'] },
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] },
      }),
    );
    const mira = new MiraProcess(dir, {}, ['--ros-args', '-r', '__ns:=/robot1']);
    try {
      await mira.until(
        () => (bridge.ops.some((op) => op.op === 'advertise_service') ? true : undefined),
        'the recall service',
      );
      expect(bridge.ops.find((op) => op.op === 'advertise_service')).to.deep.include({
        service: '/robot1/mira/recall',
        type: 'mira_interfaces/srv/Recall',
      });
      expect(bridge.subscribers('/robot1/mira/utterance')).to.equal(0);
      const answer = await client.callService(
        '/robot1/mira/recall',
        'mira_interfaces/srv/Recall',
        { query: 'Ada' },
        5000,
      );
      expect(answer).to.deep.equal({ status: 'unavailable', text: 'persistent memory is not enabled in this profile' });
    } finally {
      expect(await mira.quit()).to.equal(0);
    }
  });
});
