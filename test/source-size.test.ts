import { expect } from 'chai';
import {
  functionSizes,
  lineCount,
  readSource,
  sizeReason,
  sourceFiles,
  type FunctionSize,
} from './helpers/source-size.js';

/**
 * The size rule (STYLE.md, #67): a hand-written source file past {@link FILE_LIMIT} lines or a function past
 * {@link FUNCTION_LIMIT} lines of its own (nested functions counted apart) is a sign to split. Generated code
 * is exempt; a file may give its reason at its top (`Size: a word table …`). The exceptions of today are listed
 * below with the size they had and why, as a ceiling: a listed file or function may shrink, not grow, and
 * a new one over the limit fails. When one is split under the limit, its entry goes.
 */
const FILE_LIMIT = 400;
const FUNCTION_LIMIT = 80;

/** Files over {@link FILE_LIMIT} lines on the day the rule came: their line count then, and why. */
const FILE_EXCEPTIONS: Readonly<Record<string, readonly [number, string]>> = {
  'core/src/cognition/engine.ts': [494, 'not split yet'],
  'core/src/errors.ts': [636, "a catalogue: core's codes with their situations (#67 item 2 would shrink it)"],
  'core/src/testing/model-server.ts': [
    525,
    "a test double of llama.cpp's server, each behaviour from the server's source",
  ],
  'plugins/mcp-tools/src/index.ts': [429, 'not split yet'],
  'plugins/memory/src/algorithm.ts': [512, 'not split yet'],
  'plugins/notes/src/tools.ts': [404, 'not split yet'],
  'plugins/robot/src/robot.ts': [579, 'not split yet'],
  'plugins/robot/src/safety/controller.ts': [681, 'not split yet'],
  'plugins/ros2/src/rosbridge-transport.ts': [929, 'not split yet'],
  'plugins/sqlite/src/open.ts': [629, 'not split yet'],
};

/** Functions over {@link FUNCTION_LIMIT} lines of their own on that day (`file:Name`): own lines then, and why. */
const FUNCTION_EXCEPTIONS: Readonly<Record<string, readonly [number, string]>> = {
  'core/src/cli.ts:main': [97, 'not split yet'],
  'core/src/testing/model-server.ts:answer': [156, "the double's one request switch, route by route as the server's"],
  'plugins/memory/src/postgres/migrations/0001-schema-v1.ts:MemorySchemaV1.up': [
    83,
    "a schema's DDL, a statement per table",
  ],
  'plugins/notes/src/commands.ts:commandList': [104, "a table of commands (each command's code a function of its own)"],
  'plugins/notes/src/tools.ts:notesTools': [100, "a table of tools (each tool's code a function of its own)"],
  'plugins/robot/src/messages.ts:toSensorValue': [83, 'not split yet'],
  'plugins/robot/src/navigation.ts:run': [93, 'not split yet'],
  'plugins/robot/src/robot.ts:attachRobot': [89, 'not split yet'],
  'plugins/robot/src/safety/controller.ts:SafetyController.onMessage': [138, 'not split yet'],
  'plugins/ros2/src/index.ts:setup': [107, 'not split yet'],
};

describe('the size rule', () => {
  const files = sourceFiles().map((file) => ({ file, text: readSource(file) }));
  const functions: FunctionSize[] = files.flatMap(({ file, text }) => functionSizes(file, text));

  it('reads hand-written sources in core, every plugin and the scaffold, generated code apart', () => {
    const names = files.map((f) => f.file);
    for (const expected of ['core/src/kernel.ts', 'plugins/mind-view/src/server.ts', 'plugins/mind-view/assets/app.js'])
      expect(names).to.include(expected);
    expect(names.filter((name) => name.includes('.generated.'))).to.deep.equal([]);
    expect(functions.find((f) => f.key === 'plugins/mind-view/src/server.ts:startMindViewServer')).not.to.equal(
      undefined,
    );
  });

  it('lets a file give its reason at its top only where a reviewer agreed: word tables and the contract types', () => {
    // A reason at the top exempts a file from the line limit (not its functions from theirs); a new one is
    // added here in the same change, so that no file exempts itself unseen.
    const reasons = Object.fromEntries(
      files.flatMap(({ file, text }) => (sizeReason(text) ? [[file, sizeReason(text)]] : [])),
    );
    expect(Object.keys(reasons).sort()).to.deep.equal([
      'plugins/memory-contract/src/types.ts',
      'plugins/memory-tools/src/assertion-rules-more.ts',
      'plugins/memory-tools/src/assertion-rules.ts',
      'plugins/memory-tools/src/clause-rules.ts',
    ]);
  });

  it('keeps every hand-written file within 400 lines, unless its top gives a reason or it is listed', () => {
    const over = files.flatMap(({ file, text }) => {
      const lines = lineCount(text);
      if (lines <= FILE_LIMIT || sizeReason(text)) return [];
      const ceiling = FILE_EXCEPTIONS[file]?.[0];
      if (ceiling !== undefined && lines <= ceiling) return [];
      return [`${file}: ${lines} lines${ceiling === undefined ? '' : ` (listed at ${ceiling})`}`];
    });
    expect(over, 'split these by concern, or write why at the top (Size: …)').to.deep.equal([]);
  });

  it('keeps every function within 80 lines of its own, unless it is listed', () => {
    const over = functions.flatMap(({ key, line, ownLines }) => {
      if (ownLines <= FUNCTION_LIMIT) return [];
      const ceiling = FUNCTION_EXCEPTIONS[key]?.[0];
      if (ceiling !== undefined && ownLines <= ceiling) return [];
      return [`${key} (line ${line}): ${ownLines} lines${ceiling === undefined ? '' : ` (listed at ${ceiling})`}`];
    });
    expect(over, 'split these into functions named for what they do').to.deep.equal([]);
  });

  it('lists only exceptions that are still over the limit, so a split one comes off the list', () => {
    const sizes = new Map(files.map(({ file, text }) => [file, lineCount(text)]));
    const ownLines = new Map(functions.map((f) => [f.key, f.ownLines]));
    const spent = [
      ...Object.keys(FILE_EXCEPTIONS).filter((file) => (sizes.get(file) ?? 0) <= FILE_LIMIT),
      ...Object.keys(FUNCTION_EXCEPTIONS).filter((key) => (ownLines.get(key) ?? 0) <= FUNCTION_LIMIT),
    ];
    expect(spent, 'remove these entries: they are within the limit now (or gone)').to.deep.equal([]);
  });

  it('reads a reason written at the top of a file, and only there', () => {
    expect(sizeReason('/**\n * A word table.\n * Size: a word table (data, not code).\n */\n')).to.equal(
      'a word table (data, not code).',
    );
    expect(sizeReason('// Size: a catalogue\nconst a = 1;\n')).to.equal('a catalogue');
    expect(sizeReason(`${'const a = 1;\n'.repeat(40)}// Size: too late\n`)).to.equal(undefined);
    expect(sizeReason("const size = 'Size: not a comment';\n")).to.equal(undefined);
  });

  it('counts a function without the functions written inside it', () => {
    const text = [
      'export function outer() {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner;',
      '}',
      'class A {',
      '  method() {',
      '    return [1].map((x) => x);',
      '  }',
      '}',
    ].join('\n');
    const sizes = Object.fromEntries(functionSizes('x.ts', text).map((f) => [f.key, f.ownLines]));
    expect(sizes).to.deep.equal({
      'x.ts:outer': 3,
      'x.ts:inner': 3,
      // The line the callback shares with the method is counted as the callback's.
      'x.ts:A.method': 2,
      'x.ts:A.method>callback': 1,
    });
  });
});
