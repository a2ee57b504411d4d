import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One row of a result table. */
export interface Row {
  readonly [column: string]: string | number;
}

/** Where results go. */
/** The committed results: bench/results. */
export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

/** A markdown table of rows. */
export function markdownTable(rows: readonly Row[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(columns), line(columns.map(() => '---')), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join(
    '\n',
  );
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A horizontal bar chart as a standalone SVG: one group per label, one bar
 * per series, values in the given unit, with an optional target line.
 */
export function barChartSvg(
  title: string,
  unit: string,
  groups: ReadonlyArray<{ label: string; bars: ReadonlyArray<{ series: string; value: number }> }>,
): string {
  const colors = ['#3b6ea8', '#e08a2c', '#5a9e4b', '#a84b8f'];
  const series = [...new Set(groups.flatMap((g) => g.bars.map((b) => b.series)))];
  const barH = 16;
  const left = 260;
  const width = 900;
  const plot = width - left - 120;
  let y = 60;
  const parts: string[] = [];
  for (const group of groups) {
    // Each group has its own scale (typeorm can be three orders slower than the rest).
    const max = Math.max(...group.bars.map((b) => b.value), 1e-9);
    parts.push(`<text x="10" y="${y + 12}" font-size="13" font-weight="bold">${escape(group.label)}</text>`);
    y += 18;
    for (const bar of group.bars) {
      const w = Math.max(1, (bar.value / max) * plot);
      const color = colors[series.indexOf(bar.series) % colors.length];
      parts.push(`<text x="${left - 8}" y="${y + 12}" font-size="12" text-anchor="end">${escape(bar.series)}</text>`);
      parts.push(`<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${color}"/>`);
      parts.push(
        `<text x="${left + w + 6}" y="${y + 12}" font-size="12">${bar.value.toFixed(1)} ${escape(unit)}</text>`,
      );
      y += barH + 4;
    }
    y += 10;
  }
  const height = y + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="28" font-size="18" font-weight="bold">${escape(title)}</text>
<text x="10" y="46" font-size="12" fill="#555">${escape(unit)}; each group drawn to its own scale</text>
${parts.join('\n')}
</svg>
`;
}

/** Writes `<name>.md`, `<name>.json` and optionally `<name>.svg` into bench/results (or `MIRA_BENCH_RESULTS`). */
export function writeResults(name: string, markdown: string, data: unknown, svg?: string): void {
  const dir = process.env.MIRA_BENCH_RESULTS ?? RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), markdown);
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
  if (svg) writeFileSync(join(dir, `${name}.svg`), svg);
}
