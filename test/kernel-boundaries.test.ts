// What the kernel refuses at its boundaries with plugins: a reading for a sensor no plugin registered, and a
// tool result whose content is not text.
import { expect } from 'chai';
import { CoreErrorCodes, definePlugin, isMiraError, type PluginKernel, type SensorReading } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';

const OBJECT_SCHEMA = { type: 'object', properties: {}, required: [], additionalProperties: false } as const;

describe('the kernel at its boundaries with plugins', () => {
  let rt: TestRuntime | undefined;
  let kernel: PluginKernel;
  afterEach(async () => rt?.dispose());

  const boot = async (results: Record<string, unknown>) => {
    const lab = definePlugin({
      name: 'lab',
      version: '1.0.0',
      setup(k) {
        kernel = k;
        k.sensors.register({ id: 'battery', kind: 'battery', unit: 'percent' });
        for (const [name, result] of Object.entries(results)) {
          k.tools.register({
            name,
            description: name,
            kind: 'acquisition',
            origins: ['operator'],
            parameters: OBJECT_SCHEMA,
            run: async () => result as never,
          });
        }
      },
    });
    rt = await createTestRuntime({ plugins: [lab] });
  };
  const reading = (sensorId: string): SensorReading => ({ sensorId, value: 81, at: new Date(), monotonic: 1 });
  const thrown = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (error) {
      if (isMiraError(error)) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  it('refuses a reading for a sensor no plugin registered, naming the plugin and the sensor; keeps nothing', async () => {
    await boot({});
    const error = await thrown(() => kernel.sensors.publish(reading('batery')));
    expect(error.code).to.equal(CoreErrorCodes.SENSOR_NOT_REGISTERED);
    expect(error.message).to.contain('plugin lab').and.to.contain('"batery"').and.to.contain('kernel.sensors.register');
    expect(kernel.sensors.latest('batery')).to.equal(undefined);
    kernel.sensors.publish(reading('battery'));
    expect(kernel.sensors.latest('battery')?.value).to.equal(81);
  });

  it('refuses a tool result whose content is not text, naming the tool, its plugin and what came', async () => {
    await boot({
      object_content: { content: { percent: 81 }, display: '81%' },
      number_content: { content: 81, display: '81%' },
      array_content: { content: [{ type: 'text', text: '81' }], display: '81%' },
      no_result: undefined,
      text_content: { content: '{"percent":81}', display: '81%' },
    });
    for (const [name, what] of [
      ['object_content', 'content of type object'],
      ['number_content', 'content of type number'],
      ['array_content', 'content of type array'],
      ['no_result', 'undefined as its result'],
    ] as const) {
      const error = await thrown(() => rt!.callTool(name, {}));
      expect(error.code, name).to.equal(CoreErrorCodes.TOOL_RESULT_INVALID);
      expect(error.message).to.contain(`tool ${name} of plugin lab returned ${what}`);
    }
    expect(await rt!.callTool('text_content', {})).to.deep.equal({ content: '{"percent":81}', display: '81%' });
  });
});
