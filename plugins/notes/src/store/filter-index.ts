import { UNLABELED, foldForFilter } from '../contract.js';

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
