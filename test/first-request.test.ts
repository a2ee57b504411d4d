import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest } from '@mira/core';
import { createTestRuntime, startScriptedModelServer, type ScriptedModelServer } from '@mira/core/testing';
import { REPO_ROOT } from './helpers/run-mira.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

// The first request of each shipped profile (an operator's first line, every tool in full form), measured as
// the model server receives it, against the table docs/operator.md states: the table is kept true here.

const PROFILES = ['mira-sim', 'mira', 'ros2-diff-drive', 'turtlebot4', 'fleet-ward'] as const;
/** How far a stated figure may be from the measured one (the readings and the clock vary by a few bytes). */
const TOLERANCE = 0.03;

interface Measured {
  readonly tools: number;
  readonly bytes: number;
  readonly tokens: number;
}

/** The rows of the table under "First request per profile" in docs/operator.md, by profile. */
function statedTable(): Map<string, Measured> {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'operator.md'), 'utf8');
  const at = doc.indexOf('| profile | tools | first request, bytes | prompt tokens |');
  expect(at, 'the table in docs/operator.md').to.be.above(-1);
  const rows = new Map<string, Measured>();
  for (const line of doc.slice(at).split('\n').slice(2)) {
    const cells = /^\| `([a-z0-9-]+)` \| (\d+) \| ([\d,]+) \| ([\d,]+) \|/.exec(line);
    if (!cells) break;
    const number = (text: string) => Number(text.replaceAll(',', ''));
    rows.set(cells[1]!, { tools: number(cells[2]!), bytes: number(cells[3]!), tokens: number(cells[4]!) });
  }
  return rows;
}

describe('the first request of each shipped profile, as docs/operator.md states it', function () {
  this.timeout(60_000);
  let bridge: RosbridgeTestServer;
  let server: ScriptedModelServer;
  before(async () => {
    bridge = await startRosbridgeServer();
  });
  after(() => bridge?.close());
  afterEach(() => server?.close());

  const measured = new Map<string, Measured>();
  for (const name of PROFILES) {
    it(`${name}: its tools and size`, async () => {
      server = await startScriptedModelServer([{ text: 'Hello.' }]);
      const manifest = readManifest(join(REPO_ROOT, 'profiles', name, 'profile.toml'), {
        ROSBRIDGE_URL: bridge.url,
        MIRA_PG_URL: 'postgres://unused',
      });
      const tables: Record<string, Record<string, unknown>> = { ...manifest.tables };
      // The robot on the in-test bridge, the stores in the test's folder, no web view: none of it changes a tool.
      if (tables.ros2) tables.ros2 = { ...tables.ros2, transport: 'rosbridge', url: bridge.url };
      if (tables.memory) tables.memory = { enabled: true, database_path: 'memory.sqlite3' };
      if (tables.notes) tables.notes = { ...tables.notes, database_path: 'notes.sqlite3' };
      if (tables.mind_view) tables.mind_view = { enabled: false };
      tables.openai = { ...tables.openai, base_url: server.url, max_retries: 0 };
      const rt = await createTestRuntime({
        plugins: manifest.plugins,
        tables,
        name: manifest.name,
        description: manifest.description,
      });
      try {
        const said = await rt.run('Hello, who are you?');
        expect(said.ok, said.output.join('\n')).to.equal(true);
      } finally {
        await rt.dispose();
      }
      const first = server.requests[0]!;
      const found = {
        tools: first.toolNames.length,
        bytes: Buffer.byteLength(JSON.stringify(first.body)),
        tokens: first.promptTokens,
      };
      measured.set(name, found);
      const stated = statedTable().get(name);
      const row = `| \`${name}\` | ${found.tools} | ${found.bytes.toLocaleString('en')} | ${found.tokens.toLocaleString('en')} |`;
      expect(stated, `no row for ${name}; measured: ${row}`).to.not.equal(undefined);
      expect(stated!.tools, row).to.equal(found.tools);
      expect(Math.abs(stated!.bytes - found.bytes) / found.bytes, row).to.be.at.most(TOLERANCE);
      expect(Math.abs(stated!.tokens - found.tokens) / found.tokens, row).to.be.at.most(TOLERANCE);
    });
  }

  it('the table has a row for each shipped profile and no other', () => {
    expect([...statedTable().keys()].sort()).to.deep.equal([...PROFILES].sort());
  });
});
