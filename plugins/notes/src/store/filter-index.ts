import { UNLABELED, foldForFilter } from '../contract.js';
import { FUNCTION_WORDS } from '../text.js';

/**
 * The browse filter's index: each note's text, labels and key folded as the filter folds them (see
 * {@link filterText}), in an FTS5 table with the trigram tokenizer. A filter word of three characters or
 * more is a phrase of its trigrams there: consecutive trigrams of the folded text are exactly its
 * substrings, so the phrase finds the notes holding the word anywhere, inside other words too ("act" in
 * "fact"), the notes a scan of the folded text finds, and a filter reads those notes instead of folding
 * every note in view. The stemmed full-text index (notes_fts) cannot do this: its words are whole, stemmed
 * tokens.
 *
 * Made at a writable open (see upgrades.ts) and kept in step by the writes of store/rows.ts; a file
 * opened read-only without it is filtered by folding every note, as before.
 */

/** The table. */
export const FILTER_TABLE = 'notes_filter';
/** Its DDL. `case_sensitive 1`: the text is folded already, and the tokenizer must not fold it otherwise. */
export const FILTER_DDL = `CREATE VIRTUAL TABLE ${FILTER_TABLE} USING fts5(text, tokenize = 'trigram case_sensitive 1')`;
/** How the index is built; a file whose index was built otherwise (or has none) gets it rebuilt at open. */
export const FILTER_INDEX_VERSION = 'trigram-folded-1';
/** The `meta` key that holds {@link FILTER_INDEX_VERSION}. */
export const FILTER_INDEX_META = 'filter_index';

/**
 * What the filter looks in, folded: the note's text, its labels (`unlabeled` for none) and its key, one per
 * line. Filter words hold no white space, so none spans two of them.
 */
export function filterText(content: string, labels: readonly string[], key: string | null): string {
  return foldForFilter(`${content}\n${labels.length > 0 ? labels.join('\n') : UNLABELED}\n${key ?? ''}`);
}

/**
 * The notes holding every filter word (folded, without white space), as SQL over `n.id` and its parameters.
 * A word of three characters or more is a phrase of its trigrams in the index, found there exactly; a
 * shorter one has no trigram, so it is looked for in the folded text (`instr`) of the notes the longer
 * words leave, or of every note when there are none.
 */
export function filterMatch(words: readonly string[]): { sql: string; params: string[] } {
  const long = words.filter((word) => [...word].length >= 3);
  const short = words.filter((word) => [...word].length < 3);
  const conditions = [
    ...(long.length > 0 ? [`${FILTER_TABLE} MATCH ?`] : []),
    ...short.map(() => 'instr(text, ?) > 0'),
  ];
  return {
    sql: `n.id IN (SELECT rowid FROM ${FILTER_TABLE} WHERE ${conditions.join(' AND ')})`,
    params: [
      ...(long.length > 0 ? [long.map((word) => `"${word.replaceAll('"', '""')}"`).join(' AND ')] : []),
      ...short,
    ],
  };
}

/** Words that make a question of quantity or frequency after "how": part of the question, not what it asks for. */
const AFTER_HOW = new Set(['much', 'many', 'often', 'long']);
/** An English clitic after an apostrophe (`'s`, `'re`, …) or a negation's `n't`, at a word's end. */
const CLITIC = /(?:['’](?:s|re|ll|ve|d|m)|n['’]t)$/u;
/** The words whose negation drops more than `n't` (`can't`, `won't`, `shan't`), as what is left to their word. */
const IRREGULAR_NEGATION: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall' };
/** What stands before a word's first letter or digit and after its last ("loft?", "(tea)"). */
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * The words a filter looks for: what is typed, folded as the filter folds (see {@link foldForFilter}), split
 * at white space, each trimmed of the punctuation around it ("loft?" is "loft"; "k-9" stays whole) and of an
 * English clitic ("tom's" is "tom"), without the function and question words a typed question holds ("when
 * is lily swimming" looks for "lily swimming", as the search tool does: {@link FUNCTION_WORDS}). A filter of
 * such words alone ("the") looks for them as typed.
 */
export function filterWords(filter: string): string[] {
  const typed = foldForFilter(filter).split(/\s+/u).filter(Boolean);
  const words = typed.flatMap((word, i) => {
    const bare = word.replace(EDGES, '');
    const cut = bare.replace(CLITIC, '');
    const stem = cut !== bare && /n['’]t$/u.test(bare) ? (IRREGULAR_NEGATION[cut] ?? cut) : cut;
    if (stem === '' || FUNCTION_WORDS.has(stem)) return [];
    if (AFTER_HOW.has(stem) && typed[i - 1]?.replace(EDGES, '') === 'how') return [];
    return [stem];
  });
  return words.length > 0 ? [...new Set(words)] : typed;
}

/**
 * The notes holding any of the filter words, and how many each holds, for a filter of two words or more: the
 * list is ranked by that count, so the notes holding every word come first and a typed question still finds
 * the note that holds most of it. `sql` is the notes holding any (SQL over `n.id`, for counting them); `held`
 * is a table of `id` and `held` (how many words) of those notes, each word's notes read once from the index
 * (a word of three characters or more) or by a pass over the folded text (a shorter one).
 */
export function filterAnyMatch(words: readonly string[]): {
  readonly sql: string;
  readonly params: string[];
  readonly held: string;
  readonly heldParams: string[];
} {
  const long = words.filter((word) => [...word].length >= 3);
  const short = words.filter((word) => [...word].length < 3);
  const phrase = (word: string) => `"${word.replaceAll('"', '""')}"`;
  const found = [
    ...(long.length > 0 ? [`SELECT rowid FROM ${FILTER_TABLE} WHERE ${FILTER_TABLE} MATCH ?`] : []),
    ...(short.length > 0
      ? [`SELECT rowid FROM ${FILTER_TABLE} WHERE ${short.map(() => 'instr(text, ?) > 0').join(' OR ')}`]
      : []),
  ];
  const each = [
    ...long.map(() => `SELECT rowid AS id FROM ${FILTER_TABLE} WHERE ${FILTER_TABLE} MATCH ?`),
    ...short.map(() => `SELECT rowid AS id FROM ${FILTER_TABLE} WHERE instr(text, ?) > 0`),
  ];
  return {
    sql: `n.id IN (${found.join(' UNION ')})`,
    params: [...(long.length > 0 ? [long.map(phrase).join(' OR ')] : []), ...short],
    held: `SELECT id, count(*) AS held FROM (${each.join(' UNION ALL ')}) GROUP BY id`,
    heldParams: [...long.map(phrase), ...short],
  };
}
