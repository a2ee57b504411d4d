import type { JsonSchema } from '../types.js';
import type { ToolSpec } from './provider.js';

/**
 * How much of the tools' own words a request carries, fullest first. A context too small for the instructions
 * and the full tools (4,096 tokens less a 1,024-token answer holds 3,072; Mira's 13 tools and instructions
 * take about 4,200) takes the first form that leaves room for the conversation:
 * - `full`: every description as the tool declares it;
 * - `first-sentence`: each tool's description cut to its first sentence ({@link firstSentence}), the
 *   parameters' descriptions kept;
 * - `no-parameter-descriptions`: that, and no `description` anywhere inside the parameters' schemas.
 * The schemas themselves (names, types, `required`, enums, bounds) are never changed, so a call's arguments are
 * validated exactly as before.
 */
export type ToolForm = 'full' | 'first-sentence' | 'no-parameter-descriptions';

/** The forms in the order they are tried. */
export const TOOL_FORMS: readonly ToolForm[] = ['full', 'first-sentence', 'no-parameter-descriptions'];

/** What each compact form leaves out, as the start-up warning says it. */
export const TOOL_FORM_RULES: Readonly<Record<ToolForm, string>> = {
  full: 'the full tool descriptions',
  'first-sentence': "each tool's description cut to its first sentence",
  'no-parameter-descriptions': "each tool's description cut to its first sentence and no parameter descriptions",
};

/** Abbreviations whose full stop ends no sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf)$/i;

/**
 * The first sentence of a text: up to and including the first `.`, `!` or `?` followed by white space or the
 * end, where the stop does not close an abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`, `cf.`) or sit inside a
 * number (`0.5`). The whole text when it has one sentence.
 *
 * @example
 * firstSentence('Recall what memory holds. Takes one name.') // 'Recall what memory holds.'
 */
export function firstSentence(text: string): string {
  const trimmed = text.trim();
  for (let i = 0; i < trimmed.length; i += 1) {
    const ch = trimmed[i]!;
    if (ch !== '.' && ch !== '!' && ch !== '?') continue;
    const next = trimmed[i + 1];
    if (next !== undefined && !/\s/.test(next)) continue;
    if (ch === '.' && ABBREVIATION.test(trimmed.slice(0, i))) continue;
    return trimmed.slice(0, i + 1);
  }
  return trimmed;
}

function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    // A property *named* description (under `properties`) is kept: only the annotation goes.
    if (key === 'description' && typeof value === 'string') continue;
    out[key] =
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutDescriptions(sub)]))
        : withoutDescriptions(value);
  }
  return out;
}

/** The tools as a form sends them (see {@link ToolForm}); `full` returns them unchanged. */
export function toolsInForm(tools: readonly ToolSpec[], form: ToolForm): ToolSpec[] {
  if (form === 'full') return [...tools];
  return tools.map((tool) => ({
    name: tool.name,
    description: firstSentence(tool.description),
    parameters:
      form === 'no-parameter-descriptions' ? (withoutDescriptions(tool.parameters) as JsonSchema) : tool.parameters,
  }));
}
