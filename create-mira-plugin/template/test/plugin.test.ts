import { expect } from 'chai';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import plugin from '../src/index.js';

describe('__NAME__', () => {
  let rt: TestRuntime;
  beforeEach(async () => {
    rt = await createTestRuntime({ plugins: [plugin], tables: { __SECTION__: __TEST_TABLE__ } });
  });
  afterEach(() => rt.dispose());
  // [tool]

  it('greets with the configured word', async () => {
    const result = await rt.callTool('__TOOL__', { name: 'Ada', excited: true });
    expect(JSON.parse(result.content)).to.deep.equal({ status: 'ok', greeting: 'Hi, Ada!' });
  });

  it('refuses arguments off the schema, as the runtime does, without running the tool', async () => {
    const result = await rt.callTool('__TOOL__', { name: 'Ada' });
    expect(JSON.parse(result.content)).to.include({ status: 'rejected', reason: 'invalid_tool_arguments' });
  });

  it('is offered to the operator only', async () => {
    const result = await rt.callTool('__TOOL__', { name: 'Ada', excited: null }, { origin: 'monitor' });
    expect(JSON.parse(result.content)).to.include({ status: 'rejected', reason: 'tool_not_available' });
  });
  // [/tool]
  // [sensor]

  it('publishes its counter, which read_sensor reads', async () => {
    const result = JSON.parse((await rt.callTool('read_sensor', { sensor_id: '__SENSOR__' })).content);
    expect(result).to.include({ status: 'fresh', sensor_id: '__SENSOR__', unit: 'ticks', value: 0 });
  });

  it('refuses a config value out of bounds when the profile starts', async () => {
    let error: unknown;
    try {
      await createTestRuntime({ plugins: [plugin], tables: { __SECTION__: { sample_every_ms: 1 } } });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.contain('sample_every_ms');
  });
  // [/sensor]
  // [command]

  it('says how long it has been running', async () => {
    const { ok, output } = await rt.run('__SECTION__ uptime');
    expect(ok).to.equal(true);
    expect(output.join('\n')).to.match(/^up \d+ s$/);
  });
  // [/command]

  it('refuses a setting it does not have, naming it', async () => {
    let error: unknown;
    try {
      await createTestRuntime({ plugins: [plugin], tables: { __SECTION__: { no_such_setting: 1 } } });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.contain('no_such_setting');
  });
});
