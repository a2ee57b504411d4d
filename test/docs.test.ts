import { expect } from 'chai';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from './tools/error-reference.js';
import { CLI_DOC, CONFIG_DOC, renderCliReference, renderConfigReference } from './tools/references.js';

/** Every Markdown document of the project: the README, docs/, and each package's README. */
function documents(): string[] {
  const found = [join(REPO_ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk(join(REPO_ROOT, 'docs'));
  for (const parent of ['core', ...readdirSync(join(REPO_ROOT, 'plugins')).map((d) => `plugins/${d}`)]) {
    const readme = join(REPO_ROOT, parent, 'README.md');
    try {
      statSync(readme);
      found.push(readme);
    } catch {
      // (a package without a README is caught below)
    }
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');

/** The anchors of a Markdown file (its headings, outside code blocks). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1]!));
  }
  return anchors;
}

describe('the documentation', function () {
  this.timeout(60_000);

  it('keeps the generated configuration and CLI references current (npm run docs)', async () => {
    expect(readFileSync(CONFIG_DOC, 'utf8') === (await renderConfigReference()), 'run npm run docs').to.equal(true);
    expect(readFileSync(CLI_DOC, 'utf8') === renderCliReference(), 'run npm run docs').to.equal(true);
  });

  it('lists every key of every plugin and every command in the references', async () => {
    const config = readFileSync(CONFIG_DOC, 'utf8');
    for (const row of ['| `database_path` |', '| `start_timeout_ms` | integer | `30000` |', '| `drive.topic` |']) {
      expect(config).to.contain(row);
    }
    for (const table of ['[profile]', '[memory]', '[notes]', '[openai]', '[ros2]', '[sim]', '[mind_view]']) {
      expect(config).to.contain(`## \`${table}\``);
    }
    const cli = readFileSync(CLI_DOC, 'utf8');
    expect(cli).to.contain('mira mcp --profile').and.to.contain('mira memory copy --profile <from> --to <to>');
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of documents()) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), path);
        const where = `${relative(REPO_ROOT, file)} → ${target}`;
        try {
          statSync(resolved);
        } catch {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('has a README per package, and a front-door README with the two set-up commands', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).to.contain('npm ci && npx mira --profile profiles/mira-sim');
    expect(readme).to.contain('npm ci && npm test');
    expect(readme.split('\n').length).to.be.below(300);
    const packages = ['core', ...readdirSync(join(REPO_ROOT, 'plugins')).map((d) => `plugins/${d}`)];
    const missing = packages.filter((p) => !documents().includes(join(REPO_ROOT, p, 'README.md')));
    expect(missing).to.deep.equal([]);
    // Every guide is reachable from the README.
    const guides = readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    for (const guide of guides) expect(readme, guide).to.contain(`(docs/${guide})`);
  });
});
