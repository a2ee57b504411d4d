import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './helpers/run-mira.js';

/** The map of hops a reader cannot follow by name (see its first paragraph). */
const MAP = 'docs/hops.md';

/** A place the map names: `file:Symbol` (dotted, `#private` allowed) or `file:'text'`. */
interface Place {
  readonly file: string;
  readonly symbol?: readonly string[];
  readonly text?: string;
}

/** Every place named in `markdown`, in backticks. */
export function placesIn(markdown: string): Place[] {
  const places: Place[] = [];
  for (const [, file, name] of markdown.matchAll(
    /`((?:core|plugins|test|bench|tools)\/[\w./-]+\.[cm]?[jt]s):([^`]+)`/g,
  )) {
    const quoted = /^'([^']+)'$/.exec(name!);
    places.push(quoted ? { file: file!, text: quoted[1]! } : { file: file!, symbol: name!.split('.') });
  }
  return places;
}

/** Each declaration of a file with the names of the declarations around it (`['Kernel', 'store']`). */
function declarations(source: ts.SourceFile): Array<readonly string[]> {
  const found: Array<readonly string[]> = [];
  const visit = (node: ts.Node, chain: readonly string[]) => {
    let name: string | undefined;
    if (ts.isConstructorDeclaration(node)) name = 'constructor';
    else if (
      ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isPropertyDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isVariableDeclaration(node) ||
      ts.isPropertyAssignment(node) ||
      ts.isShorthandPropertyAssignment(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isPropertySignature(node) ||
      ts.isMethodSignature(node) ||
      ts.isEnumDeclaration(node)
    ) {
      const id = (node as { name?: ts.Node }).name;
      if (id && (ts.isIdentifier(id) || ts.isPrivateIdentifier(id) || ts.isStringLiteral(id))) name = id.text;
    }
    const inner = name === undefined ? chain : [...chain, name];
    if (name !== undefined) found.push(inner);
    ts.forEachChild(node, (child) => {
      visit(child, inner);
    });
  };
  visit(source, []);
  return found;
}

/** Whether `symbol` names a declaration: its last name declared, inside the others in that order. */
function declares(source: ts.SourceFile, symbol: readonly string[]): boolean {
  return declarations(source).some((chain) => {
    if (chain[chain.length - 1] !== symbol[symbol.length - 1]) return false;
    let at = 0;
    for (const name of chain.slice(0, -1)) if (name === symbol[at]) at += 1;
    return at === symbol.length - 1;
  });
}

/** Whether the file holds `text` as a string (or as the text of a template's part). */
function holdsString(source: ts.SourceFile, text: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text === text) found = true;
    else if (
      (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) &&
      node.text.includes(text)
    )
      found = true;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What is wrong with a place: the file is gone, or the symbol or string is not in it. */
function problem(place: Place): string | undefined {
  const path = join(REPO_ROOT, place.file);
  if (!existsSync(path)) return `${place.file}: no such file`;
  const source = ts.createSourceFile(place.file, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  if (place.symbol && !declares(source, place.symbol)) return `${place.file}: declares no ${place.symbol.join('.')}`;
  if (place.text !== undefined && !holdsString(source, place.text)) return `${place.file}: holds no '${place.text}'`;
  return undefined;
}

describe(`the hop map (${MAP})`, () => {
  const markdown = readFileSync(join(REPO_ROOT, MAP), 'utf8');
  const places = placesIn(markdown);

  it('names only places that exist: every file, every declaration, every string', () => {
    const wrong = places.map(problem).filter((p) => p !== undefined);
    expect(wrong, `fix ${MAP} (or the code): a hop it names has moved`).to.deep.equal([]);
  });

  it('maps each walk it promises: remember, a Mind view search, drive and stop with both stop paths', () => {
    for (const heading of [
      '## `remember`',
      '## A Mind view search',
      '## `drive` and `stop`',
      '### The stop path, drawn',
    ])
      expect(markdown).to.include(heading);
    const named = new Set(places.map((p) => `${p.file}:${p.symbol?.join('.') ?? `'${p.text}'`}`));
    // The hops the review found no reader could follow (#67): worker messages, the tool registry, the double
    // stop path (line-reader thread and main thread), statements named by string, #private fields.
    for (const hop of [
      'core/src/console/line-reader.ts:emit',
      'core/src/cognition/engine.ts:EpisodeEngine.#loop',
      'plugins/robot/src/safety/controller.ts:SafetyController.consoleSignal',
      'core/src/kernel.ts:Kernel.emergencyStop',
      'plugins/memory/src/script.ts:runSync',
      'plugins/notes/src/notes-store.ts:SqliteNotesStore.search',
      'plugins/mind-view/src/router.ts:createRouter',
    ])
      expect([...named], hop).to.include(hop);
    expect(places.length).to.be.greaterThan(60);
  });

  it('finds a moved declaration, a missing string and a missing file', () => {
    const check = (name: string) => problem(placesIn(`\`${name}\``)[0]!);
    expect(check('core/src/kernel.ts:Kernel.store')).to.equal(undefined);
    expect(check('core/src/kernel.ts:Kernel.#registerTool')).to.equal(undefined);
    expect(check('plugins/robot/src/robot.ts:attachRobot.halt')).to.equal(undefined);
    expect(check('core/src/kernel.ts:Kernel.storeOf')).to.equal('core/src/kernel.ts: declares no Kernel.storeOf');
    // A method of another class is not this class's.
    expect(check('core/src/kernel.ts:EpisodeEngine.store')).to.equal(
      'core/src/kernel.ts: declares no EpisodeEngine.store',
    );
    expect(check("core/src/console/line-reader.ts:'stop'")).to.equal(undefined);
    expect(check("core/src/console/line-reader.ts:'halt'")).to.equal(
      "core/src/console/line-reader.ts: holds no 'halt'",
    );
    expect(check('core/src/gone.ts:x')).to.equal('core/src/gone.ts: no such file');
  });
});
