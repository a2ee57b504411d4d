import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './run-mira.js';

/** Where the shipped, hand-written source lives (tests, benchmarks and tools are not counted here). */
const SOURCE_DIRS = ['core/src', 'plugins/*/src', 'plugins/*/assets', 'create-mira-plugin'];

/** Written by a tool, not by hand: generated code is a reason of its own to be long. */
export const isGenerated = (file: string): boolean => /\.generated\.[cm]?[jt]s$/.test(file);

/**
 * The reason a long file gives at its top: a line of its leading comment reading `Size: <why>` (a word
 * table, a catalogue), within its first 30 lines.
 */
export function sizeReason(text: string): string | undefined {
  const top = text.split('\n').slice(0, 30).join('\n');
  return /^\s*(?:\*|\/\/)\s*Size: (.+)$/m.exec(top)?.[1]?.trim();
}

/** The hand-written source files (TypeScript and JavaScript), relative to the repository, sorted. */
export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.[cm]?[jt]s$/.test(name) && !name.endsWith('.d.ts')) files.push(relative(REPO_ROOT, path));
    }
  };
  for (const pattern of SOURCE_DIRS) {
    const [first, , rest] = pattern.split('/');
    if (pattern.includes('*')) {
      for (const plugin of readdirSync(join(REPO_ROOT, first!))) {
        const dir = join(REPO_ROOT, first!, plugin, rest!);
        if (statSync(join(REPO_ROOT, first!, plugin)).isDirectory() && exists(dir)) walk(dir);
      }
    } else walk(join(REPO_ROOT, pattern));
  }
  return files.filter((file) => !isGenerated(file)).sort();
}

function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A file's line count, as `wc -l` gives it. */
export function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** A function's size: the lines it spans less those of the functions written inside it. */
export interface FunctionSize {
  /** `file:Name`, the name a reader searches for (`Class.method`, `outer>callback` for an unnamed one). */
  readonly key: string;
  readonly line: number;
  readonly ownLines: number;
}

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

function nameOf(node: ts.Node, source: ts.SourceFile): string | undefined {
  const named = node as { name?: ts.Node };
  const parent = node.parent;
  const owner = ts.isClassLike(parent) ? `${parent.name?.getText(source) ?? '<class>'}.` : '';
  if (ts.isConstructorDeclaration(node)) return `${owner}constructor`;
  if (named.name) return `${owner}${named.name.getText(source)}`;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return `${ts.isPropertyDeclaration(parent) ? owner : ''}${parent.name.getText(source)}`;
  return undefined;
}

/** Every function of a file with a body, with its own lines (nested functions counted apart). */
export function functionSizes(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const span = (node: ts.Node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
  const isFunction = (node: ts.Node): node is FunctionNode =>
    ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined;
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node, outer: string) => {
    let inside = outer;
    if (isFunction(node)) {
      let own = span(node);
      // (ts.forEachChild stops at the first callback that returns a truthy value: these return nothing.)
      const nested = (child: ts.Node): void => {
        if (isFunction(child)) own -= span(child);
        else ts.forEachChild(child, nested);
      };
      ts.forEachChild(node.body, nested);
      const name = nameOf(node, source) ?? `${outer || '<module>'}>callback`;
      sizes.push({ key: `${file}:${name}`, line: lineOf(node.getStart(source)) + 1, ownLines: own });
      inside = name;
    }
    ts.forEachChild(node, (child) => {
      visit(child, inside);
    });
  };
  visit(source, '');
  return sizes;
}

/** Reads a source file of the repository. */
export const readSource = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');
