import { expect } from 'chai';
import notesPlugin from '@mira/plugin-notes';
import simPlugin from '@mira/plugin-sim';
import type { MiraPlugin } from '@mira/core';
import type { ScriptedReply, ScriptedServerOptions } from '@mira/core/testing';
import { modelRuntime, type ModelRuntime } from './model-runtime.js';

// A long console session on the simulated profile's tools (as many as mira-sim's), with a tool whose
// results are long: what the context budget and the prefix cache are measured on.

export const LOG_LINE = 'motor 1 current 0.42 A, motor 2 current 0.40 A, temperature 31 C; ';
/** An effect tool with long results (a log read), callable many times per episode. */
const logPlugin: MiraPlugin = {
  name: 'long-log',
  version: '1.0.0',
  setup: (k) =>
    k.tools.register({
      name: 'read_log',
      description: 'Read the newest lines of the robot log.',
      kind: 'effect',
      origins: ['operator'],
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      run: async () => ({ content: LOG_LINE.repeat(40), display: 'read 40 lines' }),
    }),
};

const SIM = {
  tick_ms: 0,
  read_timeout_ms: 1,
  drive: {
    topic: '/cmd_vel',
    type: 'geometry_msgs/msg/Twist',
    max_linear_m_s: 0.5,
    max_angular_rad_s: 1.5,
    max_duration_s: 10,
  },
};

/** A runtime with the simulated profile's tools and a log tool, against a server of `contextTokens`. */
export async function simRuntime(
  contextTokens: number,
  openai: Record<string, unknown> = {},
  server: ScriptedServerOptions = {},
): Promise<ModelRuntime> {
  return modelRuntime({
    plugins: [simPlugin, notesPlugin, logPlugin],
    tables: { sim: SIM, notes: { enabled: true, database_path: 'notes.sqlite3', scope: 'default' } },
    server: { contextTokens, ...server },
    openai: { max_tokens: 1024, ...openai },
  });
}

const call = (name: string, args: unknown = {}) => ({ name, arguments: args });
/**
 * The model's answers for turn `i`: a mix of plain replies, sensor reads, notes and (every fourth turn) three
 * steps of long log reads, or with `longResults` false a recall and a note search instead. The note tools'
 * arguments are their real ones (`content`, `label`, `private_key`).
 */
export function turn(i: number, longResults = true): ScriptedReply[] {
  const reply = { text: `Done with turn ${i}; the readings look normal and nothing needs your attention now.` };
  switch (i % 4) {
    case 0:
      return [reply];
    case 1:
      return [{ toolCalls: [call('read_sensor', { sensor_id: 'battery' })] }, reply];
    case 2:
      return [
        {
          toolCalls: [
            call('save_memory', {
              content: `Turn ${i}: the spare battery is on shelf ${i}.`,
              label: null,
              private_key: null,
            }),
          ],
        },
        reply,
      ];
    default:
      if (!longResults) {
        return [
          { toolCalls: [call('read_sensor', { sensor_id: 'range' }), call('recall_memory', { query: 'Ada' })] },
          { toolCalls: [call('search_memory', { query: 'spare battery', label: null, private_key: null })] },
          reply,
        ];
      }
      return [
        { toolCalls: [call('read_log'), call('read_log')] },
        { toolCalls: [call('read_log')] },
        { toolCalls: [call('read_log'), call('read_sensor', { sensor_id: 'range' })] },
        reply,
      ];
  }
}
export const utterance = (i: number) =>
  `Turn ${i}: please check the robot and tell me whether everything is in order today.`;

/** Runs turns 1 to `turns`, each scripted by {@link turn}; every line must succeed. */
export async function session(m: ModelRuntime, turns: number, longResults = true): Promise<string[]> {
  const output: string[] = [];
  for (let i = 1; i <= turns; i += 1) {
    m.server.push(...turn(i, longResults));
    m.clock.advance(30_000);
    const said = await m.say(utterance(i));
    output.push(...said.output);
    expect(said.ok, said.output.join('\n')).to.equal(true);
    // The note the turn saves is saved: a call its tool refuses would measure a refusal, not a note.
    if (i % 4 === 2) expect(said.output.join('\n'), `turn ${i}`).to.match(/\[save_memory\] saved N\d+/);
  }
  expect(m.server.remaining).to.equal(0);
  return output;
}
