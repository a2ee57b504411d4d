import { expect } from 'chai';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import type { ErrorCatalogue } from '@mira/core';
import {
  ERRORS_DOC,
  REPO_ROOT,
  collectCatalogues,
  renderReference,
  withReference,
  workspacePackages,
} from './tools/error-reference.js';

/** Every source file of every package (what ships), relative to the repository. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(name) && !name.endsWith('.d.ts')) files.push(relative(REPO_ROOT, path));
    }
  };
  for (const { dir } of workspacePackages()) {
    for (const sub of ['src', 'assets']) {
      try {
        walk(join(REPO_ROOT, dir, sub));
      } catch {
        // the package has no such folder
      }
    }
  }
  return files;
}

/** A source file (relative to the repository), parsed. */
function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(REPO_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The string and template literals of a file (not its comments), with their line numbers. */
function stringLiterals(file: string): Array<{ text: string; line: number }> {
  const source = parse(file);
  const found: Array<{ text: string; line: number }> = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('error catalogues', () => {
  let catalogues: ErrorCatalogue[];
  before(async () => {
    catalogues = await collectCatalogues();
  });

  it('are exported by the packages that raise codes', () => {
    const packages = new Set(catalogues.map((c) => c.package));
    for (const name of [
      '@mira/core',
      '@mira/memory-contract',
      '@mira/sqlite',
      '@mira/robot',
      '@mira/plugin-notes',
      '@mira/plugin-attention',
      '@mira/plugin-mind-view',
    ]) {
      expect(packages, name).to.include(name);
    }
  });

  it('define every code once across all packages', () => {
    const seen = new Map<string, string>();
    for (const catalogue of catalogues) {
      for (const entry of catalogue.entries) {
        expect(
          seen.get(entry.code),
          `${entry.code} is defined by ${seen.get(entry.code)} and ${catalogue.package}`,
        ).to.equal(undefined);
        seen.set(entry.code, catalogue.package);
        expect(entry.code).to.match(/^MIRA_ERR_[A-Z0-9_]+$/);
        expect(entry.message.trim(), entry.code).not.to.equal('');
        expect(entry.fix.trim(), entry.code).not.to.equal('');
      }
    }
    expect(seen.size).to.be.greaterThan(60);
  });

  it('hold every code the sources mention', () => {
    const known = new Set(catalogues.flatMap((c) => c.entries.map((e) => e.code)));
    const unknown: string[] = [];
    for (const file of sourceFiles()) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      for (const [code] of text.matchAll(/MIRA_ERR_[A-Z0-9_]*[A-Z0-9]/g)) {
        // `MIRA_ERR_COGNITION_*`-style families in comments name a prefix, not a code.
        if (!known.has(code) && !text.includes(`${code}_*`)) unknown.push(`${file}: ${code}`);
      }
    }
    expect(unknown).to.deep.equal([]);
  });

  it('are the only place a code is written as a string', () => {
    const literals: string[] = [];
    for (const file of sourceFiles()) {
      if (file.endsWith('/errors.ts')) continue;
      for (const { text, line } of stringLiterals(file))
        if (text.includes('MIRA_ERR_')) literals.push(`${file}:${line}: ${text}`);
    }
    expect(literals).to.deep.equal([]);
  });

  it('word the messages: no raise site writes its own text beside a code', () => {
    // Text written at a raise site, `new MiraError(code, '…')` or `X.error('KEY', `…`)`, is what the
    // catalogue's templates and situations are for. The sites below wrap another error's message
    // under that error's own code (a code not known in advance), so no catalogue can word them.
    const wrapping: Record<string, number> = {
      'core/src/application.ts': 1, // a manifest failure, prefixed with the manifest's path
      'core/src/kernel.ts': 1, // a store's open failure, prefixed with the store and its plugin
      'core/src/tap-errors.ts': 1, // a plugin's failure in a hook, named after the plugin
      'core/src/errors.ts': 1, // toMiraError: any failure, with the caller's context
    };
    const isText = (node: ts.Expression): boolean =>
      ts.isStringLiteralLike(node) ||
      ts.isTemplateExpression(node) ||
      (ts.isBinaryExpression(node) && (isText(node.left) || isText(node.right))) ||
      (ts.isConditionalExpression(node) && (isText(node.whenTrue) || isText(node.whenFalse))) ||
      (ts.isParenthesizedExpression(node) && isText(node.expression));
    const found: Record<string, string[]> = {};
    for (const file of sourceFiles().filter((f) => f.endsWith('.ts'))) {
      const source = parse(file);
      const visit = (node: ts.Node) => {
        const raised =
          ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'MiraError'
            ? node.arguments?.[1]
            : ts.isCallExpression(node) &&
                ts.isPropertyAccessExpression(node.expression) &&
                node.expression.name.text === 'error' &&
                /Errors$/.test(node.expression.expression.getText(source)) &&
                node.arguments[0] !== undefined &&
                ts.isStringLiteral(node.arguments[0])
              ? node.arguments[1]
              : undefined;
        if (raised && isText(raised)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          (found[file] ??= []).push(`${file}:${line}: ${node.getText(source).split('\n')[0]}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    const unexpected = Object.entries(found).flatMap(([file, sites]) =>
      sites.length > (wrapping[file] ?? 0) ? sites : [],
    );
    expect(unexpected, 'word these in the package catalogue (a template or situations)').to.deep.equal([]);
    // The allowances stay exact, so one freed is one taken away.
    expect(Object.fromEntries(Object.entries(found).map(([file, sites]) => [file, sites.length]))).to.deep.equal(
      wrapping,
    );
  });

  it('give the MiraError a catalogue builds its code, and the entry message as default detail', async () => {
    const { CoreErrors, MiraError } = await import('@mira/core');
    const error = CoreErrors.error('STORE_OPEN_FAILED');
    expect(error).to.be.instanceOf(MiraError);
    expect(error.code).to.equal('MIRA_ERR_STORE_OPEN_FAILED');
    expect(error.detail).to.equal(CoreErrors.entry('MIRA_ERR_STORE_OPEN_FAILED')!.message);
    expect(CoreErrors.error('STORE_OPEN_FAILED', 'disk gone').message).to.equal(
      'MIRA_ERR_STORE_OPEN_FAILED: disk gone',
    );
    expect(CoreErrors.error('CLI_USAGE.unexpected', { arg: '--fast' }).message).to.equal(
      'MIRA_ERR_CLI_USAGE: unexpected argument "--fast"; see mira --help',
    );
  });

  it("give each loaded code's entry by its code, whichever package defines it", async () => {
    const { errorEntry, CoreErrors } = await import('@mira/core');
    const { MemoryErrors } = await import('@mira/memory-contract');
    expect(errorEntry('MIRA_ERR_CLI_USAGE')).to.equal(CoreErrors.entry('MIRA_ERR_CLI_USAGE'));
    expect(errorEntry('MIRA_ERR_MEMORY_POSE_INVALID')?.fix).to.equal(
      MemoryErrors.entry('MIRA_ERR_MEMORY_POSE_INVALID')!.fix,
    );
    expect(errorEntry('MIRA_ERR_NO_SUCH_CODE')).to.equal(undefined);
  });

  it('say what to do about a failure: the advice of the innermost error in the cause chain that has any', async () => {
    const { CoreErrors, MiraError, failureText, whatToDo } = await import('@mira/core');
    const { MemoryErrors } = await import('@mira/memory-contract');
    const backend = MemoryErrors.error('BACKEND.failed', { reason: 'disk I/O error' });
    const failed = CoreErrors.error('PLUGIN_START_FAILED', `plugin "memory": ${backend.message}`, {
      cause: backend,
    });
    const backendFix = MemoryErrors.entry('MIRA_ERR_MEMORY_BACKEND')!.fix;
    expect(whatToDo(failed)).to.equal(backendFix);
    // A lower error that is not Mira's, or a code no catalogue holds, leaves the outer advice.
    const startFix = CoreErrors.entry('MIRA_ERR_PLUGIN_START_FAILED')!.fix;
    expect(whatToDo(CoreErrors.error('PLUGIN_START_FAILED', 'x', { cause: new Error('EIO') }))).to.equal(startFix);
    const unlisted = new MiraError('ACME_ERR_UNLISTED', 'y');
    expect(whatToDo(CoreErrors.error('PLUGIN_START_FAILED', 'x', { cause: unlisted }))).to.equal(startFix);
    expect(whatToDo(unlisted)).to.equal(undefined);
    expect(whatToDo(new Error('plain'))).to.equal(undefined);
    expect(whatToDo('a string')).to.equal(undefined);
    // A cause chain that loops ends.
    const a = new MiraError('MIRA_ERR_FILE_EXISTS', 'a');
    const b = new MiraError('ACME_ERR_UNLISTED', 'b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    expect(whatToDo(b)).to.equal(CoreErrors.entry('MIRA_ERR_FILE_EXISTS')!.fix);

    expect(failureText(failed)).to.equal(`mira: ${failed.message}\nmira: what to do: ${backendFix}\n`);
    expect(failureText(unlisted, 'lab')).to.equal('lab: ACME_ERR_UNLISTED: y\n');
    expect(failureText(new Error('raw'))).to.equal(
      `mira: MIRA_ERR_INTERNAL: raw\nmira: what to do: ${CoreErrors.entry('MIRA_ERR_INTERNAL')!.fix}\n`,
    );
  });

  it('build a message from its template and the parameters a site gives, typed by the placeholders', async () => {
    const { defineErrors, fillTemplate } = await import('@mira/core');
    const Lab = defineErrors('@acme/templates', {
      TOO_LONG: {
        code: 'ACME_ERR_TEMPLATE_TOO_LONG',
        message: 'a note is longer than its bound',
        template: 'the note has {length} characters, more than {max}; shorten it',
        fix: 'shorten it',
      },
      EMPTY: { code: 'ACME_ERR_TEMPLATE_EMPTY', message: 'empty', template: 'the note is empty; write it', fix: 'x' },
      PLAIN: { code: 'ACME_ERR_TEMPLATE_PLAIN', message: 'plain', fix: 'x' },
    });
    const cause = new Error('lower');
    const long = Lab.error('TOO_LONG', { length: 900, max: 512 }, { cause });
    expect(long.message).to.equal('ACME_ERR_TEMPLATE_TOO_LONG: the note has 900 characters, more than 512; shorten it');
    expect(long.detail).to.equal('the note has 900 characters, more than 512; shorten it');
    expect(long.cause).to.equal(cause);
    expect(Lab.error('EMPTY').detail).to.equal('the note is empty; write it');
    expect(Lab.error('PLAIN').detail).to.equal('plain');
    expect(Lab.error('PLAIN', 'said here').detail).to.equal('said here');
    // A value is inserted as written, never read as a placeholder itself.
    expect(fillTemplate('{a} and {b}', { a: '{b}', b: 2 })).to.equal('{b} and 2');
    expect(fillTemplate('{a} and {missing}', { a: 1 })).to.equal('1 and {missing}');
    // The compiler holds each site to its template (checked by the type-check in npm test):
    // @ts-expect-error a template's parameters are required
    Lab.error('TOO_LONG');
    // @ts-expect-error and every placeholder needs one
    Lab.error('TOO_LONG', { length: 1 });
    // @ts-expect-error a site with a template gives parameters, not text of its own
    Lab.error('TOO_LONG', 'free text');
    // @ts-expect-error a parameter the template does not name
    Lab.error('TOO_LONG', { length: 1, max: 2, other: 3 });
    // @ts-expect-error nor text where the template has no placeholders (it would be dropped)
    Lab.error('EMPTY', 'free text');
  });

  it('word each situation of one code once, named by KEY.situation, typed by its placeholders', async () => {
    const { defineErrors, errorEntry } = await import('@mira/core');
    const Lab = defineErrors('@acme/situations', {
      MISSING: {
        code: 'ACME_ERR_SITUATION_MISSING',
        message: 'a lab file is missing',
        fix: 'create it',
        situations: {
          file: '{path}: no such file; create it',
          extends: '{where}: extends "{spec}", which does not exist',
          plain: 'there is nothing here',
          braces: 'export default { name, version } from {file}',
        },
      },
    });
    const cause = new Error('lower');
    const missing = Lab.error('MISSING.extends', { where: 'a.toml', spec: 'b' }, { cause });
    expect(missing.code).to.equal('ACME_ERR_SITUATION_MISSING');
    expect(missing.detail).to.equal('a.toml: extends "b", which does not exist');
    expect(missing.cause).to.equal(cause);
    expect(Lab.error('MISSING.file', { path: '/x' }).message).to.equal(
      'ACME_ERR_SITUATION_MISSING: /x: no such file; create it',
    );
    expect(Lab.error('MISSING.plain').detail).to.equal('there is nothing here');
    expect(Lab.error('MISSING.braces', { file: 'f.js' }).detail).to.equal('export default { name, version } from f.js');
    // Without a situation the entry's own message; one code, one fix for all of them.
    expect(Lab.error('MISSING').detail).to.equal('a lab file is missing');
    expect(errorEntry('ACME_ERR_SITUATION_MISSING')!.situations).to.deep.equal({
      file: '{path}: no such file; create it',
      extends: '{where}: extends "{spec}", which does not exist',
      plain: 'there is nothing here',
      braces: 'export default { name, version } from {file}',
    });
    // @ts-expect-error a situation's parameters are required
    Lab.error('MISSING.file');
    // @ts-expect-error a parameter the situation does not name
    Lab.error('MISSING.file', { path: '/x', spec: 'b' });
    // @ts-expect-error an entry with situations takes no text of its own
    Lab.error('MISSING', 'free text');
    // @ts-expect-error a situation the entry does not have
    expect(() => Lab.error('MISSING.other', {})).to.throw('@acme/situations: the catalogue has no error MISSING.other');
    expect(() =>
      defineErrors('@acme/bad-situation', {
        X: { code: 'ACME_ERR_BAD_SITUATION', message: 'x', fix: 'x', situations: { 'Not-a-name': 'x' } },
      }),
    ).to.throw('situation "Not-a-name" of ACME_ERR_BAD_SITUATION must be a camelCase name');
  });

  it("borrow another package's code: the owner's meaning and fix, the borrower's wording", async () => {
    const { defineErrors, errorEntry, whatToDo, CoreErrorCodes, CoreErrors } = await import('@mira/core');
    const Lab = defineErrors('@acme/borrower', {
      OWN: { code: 'ACME_ERR_BORROWER_OWN', message: 'own', fix: 'own fix' },
      STORE_OPEN_FAILED: {
        code: CoreErrorCodes.STORE_OPEN_FAILED,
        borrowed: true,
        situations: { locked: '{path} is locked by another process; stop it' },
      },
      TEXT_EMPTY: { code: CoreErrorCodes.TEXT_EMPTY, borrowed: true, template: '{what} is empty' },
    });
    const locked = Lab.error('STORE_OPEN_FAILED.locked', { path: '/var/lab.db' });
    expect(locked.code).to.equal('MIRA_ERR_STORE_OPEN_FAILED');
    expect(locked.detail).to.equal('/var/lab.db is locked by another process; stop it');
    expect(Lab.error('TEXT_EMPTY', { what: 'the label' }).detail).to.equal('the label is empty');
    // Without a situation, the owner's message; the fix is the owner's, once.
    expect(Lab.error('STORE_OPEN_FAILED').detail).to.equal(CoreErrors.entry(CoreErrorCodes.STORE_OPEN_FAILED)!.message);
    expect(whatToDo(locked)).to.equal(CoreErrors.entry(CoreErrorCodes.STORE_OPEN_FAILED)!.fix);
    expect(errorEntry(CoreErrorCodes.STORE_OPEN_FAILED)).to.equal(CoreErrors.entry(CoreErrorCodes.STORE_OPEN_FAILED));
    // Defined by the owner alone: not among the borrower's entries, nor found through it.
    expect(Lab.entries.map((e) => e.code)).to.deep.equal(['ACME_ERR_BORROWER_OWN']);
    expect(Lab.borrowed.map((e) => e.code)).to.deep.equal(['MIRA_ERR_STORE_OPEN_FAILED', 'MIRA_ERR_TEXT_EMPTY']);
    expect(Lab.entry(CoreErrorCodes.STORE_OPEN_FAILED)).to.equal(undefined);
    // The reference words the borrowed situations in the owner's row.
    const row = renderReference([CoreErrors, Lab])
      .split('\n')
      .find((line) => line.startsWith('| `MIRA_ERR_STORE_OPEN_FAILED` | `@mira/core` |'))!;
    expect(row).to.contain('; `@acme/borrower` says “{path} is locked by another process; stop it”');
    expect(() =>
      defineErrors('@acme/bad-borrower', { X: { code: 'ACME_ERR_NOBODY_DEFINES', borrowed: true, template: 'x' } }),
    ).to.throw('borrowed error code ACME_ERR_NOBODY_DEFINES is defined by no loaded catalogue');
    expect(() =>
      defineErrors('@acme/bad-borrower', { X: { code: CoreErrorCodes.TEXT_EMPTY, borrowed: true } }),
    ).to.throw('borrowed error code MIRA_ERR_TEXT_EMPTY needs a template or situations of its own');
  });

  it('borrow only codes another catalogue defines', () => {
    const defined = new Set(catalogues.flatMap((c) => c.entries.map((e) => e.code)));
    for (const catalogue of catalogues)
      for (const entry of catalogue.borrowed)
        expect(defined, `${catalogue.package} borrows ${entry.code}`).to.include(entry.code);
  });

  it('refuse a code defined twice in one catalogue', async () => {
    const { defineErrors } = await import('@mira/core');
    expect(() =>
      defineErrors('@acme/x', {
        A: { code: 'ACME_ERR_SAME', message: 'a', fix: 'a' },
        B: { code: 'ACME_ERR_SAME', message: 'b', fix: 'b' },
      }),
    ).to.throw(/ACME_ERR_SAME is defined twice/);
  });

  it('are listed in docs/reference/errors.md, which is current (npm run docs)', () => {
    const readme = readFileSync(ERRORS_DOC, 'utf8');
    expect(
      withReference(readme, renderReference(catalogues)) === readme,
      'docs/reference/errors.md is stale; run npm run docs',
    ).to.equal(true);
    for (const catalogue of catalogues)
      for (const entry of catalogue.entries)
        expect(readme).to.contain(`| \`${entry.code}\` | \`${catalogue.package}\` |`);
  });
});
