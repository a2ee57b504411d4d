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
    expect(error.fix).to.equal(CoreErrors.entry('MIRA_ERR_STORE_OPEN_FAILED')!.fix);
  });

  it('give each error the fix of the situation it was raised in, whichever package raises it', async () => {
    const { CoreErrors } = await import('@mira/core');
    const { MemoryErrors } = await import('@mira/memory-contract');
    const situations = CoreErrors.entry('MIRA_ERR_CLI_USAGE')!.situations!;
    const unexpected = CoreErrors.error('CLI_USAGE.unexpected', { arg: '--fast' });
    expect(unexpected.fix).to.equal((situations['unexpected'] as { fix: string }).fix);
    expect(unexpected.fix).not.to.equal(CoreErrors.entry('MIRA_ERR_CLI_USAGE')!.fix);
    expect(CoreErrors.error('CLI_USAGE.profileMissing').fix).not.to.equal(unexpected.fix);
    // A code raised with its template carries the entry's fix.
    expect(MemoryErrors.error('MEMORY_NOT_FOUND', { ref: 'MEM9' }).fix).to.equal(
      MemoryErrors.entry('MIRA_ERR_MEMORY_NOT_FOUND')!.fix,
    );
    // The fix is a property of the error, not of its message: the line scripts match is unchanged.
    expect(unexpected.message).not.to.contain(unexpected.fix!);
  });

  it('say what to do about a failure: the advice of the innermost error in the cause chain that has any', async () => {
    const { CoreErrorCodes, CoreErrors, MiraError, failureText, toMiraError, whatToDo } = await import('@mira/core');
    const { MemoryErrors } = await import('@mira/memory-contract');
    const backend = MemoryErrors.error('BACKEND.failed', { reason: 'disk I/O error' });
    const failed = CoreErrors.error('PLUGIN_START_FAILED', `plugin "memory": ${backend.message}`, {
      cause: backend,
    });
    const backendFix = backend.fix!;
    expect(backendFix).to.be.a('string');
    expect(whatToDo(failed)).to.equal(backendFix);
    // A lower error that is not Mira's, or a code no catalogue holds, leaves the outer advice.
    const startFix = CoreErrors.entry('MIRA_ERR_PLUGIN_START_FAILED')!.fix;
    expect(whatToDo(CoreErrors.error('PLUGIN_START_FAILED', 'x', { cause: new Error('EIO') }))).to.equal(startFix);
    // An error built by hand carries what it is given: no fix, or its own.
    const unlisted = new MiraError('ACME_ERR_UNLISTED', 'y');
    expect(whatToDo(CoreErrors.error('PLUGIN_START_FAILED', 'x', { cause: unlisted }))).to.equal(startFix);
    expect(whatToDo(unlisted)).to.equal(undefined);
    expect(whatToDo(new Error('plain'))).to.equal(undefined);
    expect(whatToDo('a string')).to.equal(undefined);
    // A cause chain that loops ends.
    const a = new MiraError('MIRA_ERR_FILE_EXISTS', 'a', { fix: 'choose another path' });
    const b = new MiraError('ACME_ERR_UNLISTED', 'b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    expect(whatToDo(b)).to.equal('choose another path');
    // Wrapping a raw error under one of core's codes gives that code's fix; a Mira error keeps its own.
    const wrapped = toMiraError(new Error('EACCES'), CoreErrorCodes.STORE_OPEN_FAILED, 'store "x"');
    expect(wrapped.detail).to.equal('store "x": EACCES');
    expect(wrapped.fix).to.equal(CoreErrors.entry('MIRA_ERR_STORE_OPEN_FAILED')!.fix);
    expect(toMiraError(backend, CoreErrorCodes.STORE_OPEN_FAILED)).to.equal(backend);

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
    expect(long.fix).to.equal('shorten it');
    expect(Lab.error('PLAIN').fix).to.equal('x');
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
    const { defineErrors } = await import('@mira/core');
    const Lab = defineErrors('@acme/situations', {
      MISSING: {
        code: 'ACME_ERR_SITUATION_MISSING',
        message: 'a lab file is missing',
        fix: 'create it',
        situations: {
          file: '{path}: no such file; create it',
          extends: { message: '{where}: extends "{spec}", which does not exist', fix: 'fix the path in extends' },
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
    // Each situation its own fix; a situation written as a bare string has the entry's.
    expect(missing.fix).to.equal('fix the path in extends');
    expect(Lab.error('MISSING.file', { path: '/x' }).message).to.equal(
      'ACME_ERR_SITUATION_MISSING: /x: no such file; create it',
    );
    expect(Lab.error('MISSING.file', { path: '/x' }).fix).to.equal('create it');
    expect(Lab.error('MISSING.plain').detail).to.equal('there is nothing here');
    expect(Lab.error('MISSING.braces', { file: 'f.js' }).detail).to.equal('export default { name, version } from f.js');
    // An entry with situations is raised in one of them: its own message is what the code means.
    // @ts-expect-error name the situation
    expect(() => Lab.error('MISSING')).to.throw('@acme/situations: MISSING is raised in a situation; name it');
    expect(Lab.entry('ACME_ERR_SITUATION_MISSING')!.situations).to.deep.equal({
      file: '{path}: no such file; create it',
      extends: { message: '{where}: extends "{spec}", which does not exist', fix: 'fix the path in extends' },
      plain: 'there is nothing here',
      braces: 'export default { name, version } from {file}',
    });
    // @ts-expect-error a situation's parameters are required
    Lab.error('MISSING.file');
    // @ts-expect-error a parameter the situation does not name
    Lab.error('MISSING.file', { path: '/x', spec: 'b' });
    // @ts-expect-error an entry with situations takes no text of its own
    expect(() => Lab.error('MISSING', 'free text')).to.throw('name it');
    // @ts-expect-error a situation the entry does not have
    expect(() => Lab.error('MISSING.other', {})).to.throw('@acme/situations: the catalogue has no error MISSING.other');
    expect(() =>
      defineErrors('@acme/bad-situation', {
        X: { code: 'ACME_ERR_BAD_SITUATION', message: 'x', fix: 'x', situations: { 'Not-a-name': 'x' } },
      }),
    ).to.throw('situation "Not-a-name" of ACME_ERR_BAD_SITUATION must be a camelCase name');
    expect(() =>
      defineErrors('@acme/bad-situation', {
        X: { code: 'ACME_ERR_NO_FIX', message: 'x', fix: 'x', situations: { a: { message: 'a', fix: ' ' } } },
      }),
    ).to.throw('situation a of ACME_ERR_NO_FIX needs a message and a fix');
  });

  it("borrow another package's code: the owner's meaning, the borrower's situations and fixes, in any load order", async () => {
    const { defineErrors, whatToDo, CoreErrors } = await import('@mira/core');
    // Written as a string, not imported: a borrower needs nothing of its owner at run time.
    const Lab = defineErrors('@acme/borrower', {
      OWN: { code: 'ACME_ERR_BORROWER_OWN', message: 'own', fix: 'own fix' },
      STORE_OPEN_FAILED: {
        code: 'MIRA_ERR_STORE_OPEN_FAILED',
        borrowed: true,
        situations: {
          locked: { message: '{path} is locked by another process; stop it', fix: 'stop the other process' },
        },
      },
      LATER: {
        code: 'ACME_ERR_DEFINED_LATER',
        borrowed: true,
        situations: { x: { message: 'x {n}', fix: 'fix x' } },
      },
    });
    const locked = Lab.error('STORE_OPEN_FAILED.locked', { path: '/var/lab.db' });
    expect(locked.code).to.equal('MIRA_ERR_STORE_OPEN_FAILED');
    expect(locked.detail).to.equal('/var/lab.db is locked by another process; stop it');
    expect(whatToDo(locked)).to.equal('stop the other process');
    expect(Lab.error('LATER.x', { n: 1 }).message).to.equal('ACME_ERR_DEFINED_LATER: x 1');
    // A borrowed code is raised in a situation of the borrower's.
    // @ts-expect-error name the situation
    expect(() => Lab.error('STORE_OPEN_FAILED')).to.throw('name it');
    // Defined by the owner alone: not among the borrower's entries, nor found through it.
    expect(Lab.entries.map((e) => e.code)).to.deep.equal(['ACME_ERR_BORROWER_OWN']);
    expect(Lab.borrowed.map((e) => e.code)).to.deep.equal(['MIRA_ERR_STORE_OPEN_FAILED', 'ACME_ERR_DEFINED_LATER']);
    expect(Lab.entry('MIRA_ERR_STORE_OPEN_FAILED')).to.equal(undefined);
    // The reference lists the borrowed situations after the owner's, in rows of the borrower; it refuses
    // a code no catalogue defines.
    const Owner = defineErrors('@acme/owner', {
      LATER: { code: 'ACME_ERR_DEFINED_LATER', message: 'what later means', fix: 'owner fix' },
    });
    const reference = renderReference([CoreErrors, Lab, Owner]).split('\n');
    const at = (prefix: string) => reference.findLastIndex((line) => line.startsWith(prefix));
    expect(reference).to.include(
      '| `MIRA_ERR_STORE_OPEN_FAILED` | `@acme/borrower` | {path} is locked by another process; stop it | stop the other process |',
    );
    expect(at('| `MIRA_ERR_STORE_OPEN_FAILED` | `@acme/borrower` |')).to.equal(
      at('| `MIRA_ERR_STORE_OPEN_FAILED` | `@mira/core` | a store could not be opened') + 1,
    );
    expect(reference).to.include('| `ACME_ERR_DEFINED_LATER` | `@acme/owner` | what later means |  |');
    expect(reference).to.include('| `ACME_ERR_DEFINED_LATER` | `@acme/borrower` | x {n} | fix x |');
    expect(() => renderReference([CoreErrors, Lab])).to.throw(
      '@acme/borrower borrows ACME_ERR_DEFINED_LATER, which no catalogue defines',
    );
    expect(() =>
      defineErrors('@acme/bad-borrower', { X: { code: 'MIRA_ERR_TEXT_EMPTY', borrowed: true, situations: {} } }),
    ).to.throw('borrowed error code MIRA_ERR_TEXT_EMPTY needs situations of its own');
    expect(() =>
      defineErrors('@acme/bad-borrower', {
        // @ts-expect-error a borrowed situation has a fix of its own: the owner's is not at hand
        X: { code: 'MIRA_ERR_TEXT_EMPTY', borrowed: true, situations: { blank: '{what} is blank' } },
      }),
    ).to.throw('borrowed situation blank of MIRA_ERR_TEXT_EMPTY needs a fix of its own');
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

  it('list one short, readable row per situation, each with what to do', () => {
    const reference = renderReference(catalogues);
    const rows = reference
      .slice(reference.indexOf('### Situations'))
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const wordings = catalogues.flatMap((c) => [
      ...c.entries.flatMap((e) =>
        e.template !== undefined || e.situations === undefined
          ? [e.template ?? e.message, ...Object.keys(e.situations ?? {})]
          : Object.keys(e.situations),
      ),
      ...c.borrowed.flatMap((b) => Object.keys(b.situations)),
    ]);
    expect(rows).to.have.length(wordings.length);
    for (const row of rows) {
      const cells = row.split(/ (?<!\\)\| /);
      expect(cells, row).to.have.length(4);
      for (const text of cells) expect(text.length, row).to.be.at.most(400);
      expect(cells[3]!.replace(/ \|$/, '').trim(), row).not.to.equal('');
    }
  });
});
