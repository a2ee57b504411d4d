import { longerThan } from '@mira/core';
import type { SearchHit, SearchResult, Viewer } from '../contract.js';
import { NotesErrors } from '../errors.js';
import { MAX_QUERY_LENGTH, hangulStem, isEmojiWord, searchWords, wordRoot } from '../text.js';
import { keyDigest } from '../transfer-format.js';
import { KEYED_FTS, type NoteRows } from './rows.js';
import { Statements } from './statements.js';
import type { NoteVectors } from './vectors.js';
import { VISIBLE, WITH_LABEL, labelFilter, visibleParams, visibleTo } from './visibility.js';

/** Reciprocal-rank fusion constant. */
const RRF_K = 60;

/**
 * The most words of a query whose notes are weighed by how many of the words they hold: a question has a
 * few; each word weighed is one more pass over its notes, so a long list of words is ranked by BM25 alone.
 */
const MAX_WEIGHED_WORDS = 8;

/** How many nearest visible notes a hybrid search fuses. */
const VECTOR_POOL = 200;

const SQL = {
  ranked: 'SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT ?',
  rankedVisible: `SELECT n.id FROM notes_fts f JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? AND ${VISIBLE} ${WITH_LABEL} ORDER BY bm25(notes_fts) LIMIT ?`,
  // Both indexes, for the operator and for a key some note carries: parameters (match, match, limit).
  rankedKeyedToo: `SELECT id FROM (SELECT rowid AS id, bm25(notes_fts) AS rank FROM notes_fts WHERE notes_fts MATCH ?
    UNION ALL SELECT rowid, bm25(${KEYED_FTS}) FROM ${KEYED_FTS} WHERE ${KEYED_FTS} MATCH ?) ORDER BY rank LIMIT ?`,
  // Parameters (match, filter…, match, filter…, limit).
  rankedVisibleKeyedToo: `SELECT id FROM (
    SELECT n.id AS id, bm25(notes_fts) AS rank FROM notes_fts f JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? AND ${VISIBLE} ${WITH_LABEL}
    UNION ALL SELECT n.id, bm25(${KEYED_FTS}) FROM ${KEYED_FTS} f JOIN notes n ON n.id = f.rowid WHERE ${KEYED_FTS} MATCH ? AND ${VISIBLE} ${WITH_LABEL}
  ) ORDER BY rank LIMIT ?`,
  // Every note holding one word, unranked: one pass over the word's entries, as ranking by it takes.
  holding: 'SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?',
  keyedHolding: `SELECT rowid FROM ${KEYED_FTS} WHERE ${KEYED_FTS} MATCH ?`,
  allowed: `SELECT n.id FROM notes n WHERE n.id IN (SELECT value FROM json_each(?)) AND ${VISIBLE.replace('n.scope IN', '+n.scope IN')} ${WITH_LABEL}`,
  keyKnown: 'SELECT 1 FROM notes WHERE key_digest = ? AND scope IN (SELECT value FROM json_each(?)) LIMIT 1',
} as const;

/** A hit's reciprocal-rank score for its place (0 first) in one ranking. */
const rrf = (place: number) => 1 / (RRF_K + place + 1);

/**
 * Two rankings fused by reciprocal rank: the IDs best first, with their scores. A tie in the fused score goes
 * to the stronger full-text evidence, so a vector neighbour alone never comes before the only note that
 * holds the words; then to the higher ID.
 */
function fused(text: readonly number[], nearest: readonly number[]): [number[], number[]] {
  const ranks = new Map<number, number>();
  const add = (ids: readonly number[]) => ids.forEach((id, i) => ranks.set(id, (ranks.get(id) ?? 0) + rrf(i)));
  add(text);
  add(nearest);
  const textRank = new Map(text.map((id, i) => [id, i]));
  const byText = (id: number) => textRank.get(id) ?? Number.MAX_SAFE_INTEGER;
  const ordered = [...ranks.entries()].sort((a, b) => b[1] - a[1] || byText(a[0]) - byText(b[0]) || b[0] - a[0]);
  return [ordered.map(([id]) => id), ordered.map(([, score]) => score)];
}

/**
 * Search: the notes a viewer may see that hold a query's words (FTS5 with BM25, notes with every word
 * first, then those with most of them), fused by reciprocal rank with the nearest notes by meaning when an
 * embedder's vectors are there (see vectors.ts). A key no note in view carries searches as no key, before
 * any keyed row is read.
 */
export class NoteSearch {
  readonly #rows: NoteRows;
  readonly #vectors: NoteVectors;
  readonly #q: Statements<keyof typeof SQL>;

  constructor(rows: NoteRows, vectors: NoteVectors) {
    this.#rows = rows;
    this.#vectors = vectors;
    this.#q = new Statements(rows.db, SQL, Object.keys(SQL) as Array<keyof typeof SQL>);
  }

  /**
   * Whether any note the viewer's scopes hold carries its key. A key that none carries is a miss, and the
   * call goes on as if no key were given: a wrong key then costs exactly what no key costs.
   */
  keyKnown(viewer: Viewer): boolean {
    if (viewer.key === null) return false;
    return this.#q.get('keyKnown').get(keyDigest(viewer.key), JSON.stringify(viewer.scopes)) !== undefined;
  }

  /**
   * Full text first, then vector similarity, fused by reciprocal rank. With
   * no embedder (or vectors from another one) it is full-text only and says so.
   */
  async search(viewer: Viewer, query: string, label: string | null = null, limit = 10): Promise<SearchResult> {
    // Bounded before any work: a 1 MB query would hold the index for a minute.
    if (longerThan(query, MAX_QUERY_LENGTH)) {
      throw NotesErrors.error('QUERY_TOO_LONG', { MAX_QUERY_LENGTH });
    }
    const wantedLabel = labelFilter(label);
    // The key is decided before any keyed row is touched: a key no note in view carries searches as no key.
    if (!viewer.operator && viewer.key !== null && !this.keyKnown(viewer)) viewer = { ...viewer, key: null };
    const keyedToo = viewer.operator || viewer.key !== null;
    const filter = [...visibleParams(viewer), wantedLabel, wantedLabel];
    let why: string | undefined;
    // The stored vectors' state is read only when an embedder could use them: two reads of the meta table
    // were a tenth of a full-text search's own cost.
    const state = this.#vectors.embedder ? this.#vectors.state() : undefined;
    if (!state) why = 'no embedder is configured, so this search is full-text only';
    else if (state.mismatch)
      why = `the stored vectors come from ${state.stored}, not ${state.configured}; full-text only until "notes reembed"`;
    else if (!state.stored) why = 'no note has a vector yet; full-text only';
    // The full-text hits, best first; fused with the nearest notes by meaning only when those are there
    // (a full-text search's order is this list's, each hit scored by its place, without the fusion's maps).
    let textIds: readonly number[] = [];
    let nearestIds: readonly number[] | undefined;
    const pool = Math.max(limit * 5, 50);
    // Function words and question words never match (see searchWords); the last word is also a prefix
    // ("charg" finds "charger"), an emoji's never. A Korean word is a prefix without its particle, wherever it
    // stands: its particles are written inside the word (`커피` finds `커피를`). Words are letters and digits
    // only, so quoting them needs no escapes.
    const content = searchWords(query);
    const terms = content.map((w, i) => {
      const korean = hangulStem(w);
      if (korean !== undefined) return `"${korean}"*`;
      const prefix = i === content.length - 1 && [...w].length >= 3 && !isEmojiWord(w);
      // A word's other forms are found by its root as a prefix, both ways: "charger" finds "charging"
      // (indexed as its Porter stem, charg) and "charging" finds "charger".
      const root = wordRoot(w.toLowerCase());
      const also = root === undefined ? '' : ` OR "${root}"*`;
      if (!prefix) return also ? `("${w}"${also})` : `"${w}"`;
      // A word alone is sought whole as well as a prefix: BM25 counts both for a note holding the word
      // itself, so "tea" comes before "team". (Beside other words this would weigh the last one double.)
      return content.length === 1 ? `("${w}" OR "${w}"*${also})` : also ? `("${w}"*${also})` : `"${w}"*`;
    });
    // How many of the words each of some notes holds (each note holds one at least). Each word's notes are
    // read whole, as the query with any of the words read them already: seeking each note in each word's
    // entries instead costs more past a few notes.
    const coverageOf = (ids: readonly number[]): Map<number, number> => {
      const coverage = new Map(ids.map((id) => [id, 0]));
      for (const term of terms) {
        for (const name of keyedToo ? (['holding', 'keyedHolding'] as const) : (['holding'] as const)) {
          for (const id of this.#q.get(name).all(term) as number[]) {
            const held = coverage.get(id);
            if (held !== undefined) coverage.set(id, held + 1);
          }
        }
      }
      return coverage;
    };
    // Notes with some of three or more words: those holding more of them first, then by BM25, so a note with
    // two of three words comes before one with the rarest word alone; and a note with one word only when no
    // note has two, nor every word (`every`). With two words, each of these holds one; past
    // MAX_WEIGHED_WORDS, BM25 alone orders them. Only notes the viewer may see are weighed and returned: a
    // note in another scope or under another key never decides which of the viewer's are listed.
    const bySomeWords = (ids: number[], every: readonly number[]): number[] => {
      if (ids.length === 0 || terms.length < 3 || terms.length > MAX_WEIGHED_WORDS) return ids;
      const visible = this.#allowedInOrder(ids, filter);
      if (visible.length === 0) return visible;
      const coverage = coverageOf(visible);
      const someHoldAll = this.#allowedInOrder(every, filter).length > 0;
      const most = someHoldAll ? terms.length : Math.max(...coverage.values());
      const place = new Map(visible.map((id, i) => [id, i]));
      return visible
        .filter((id) => most < 2 || coverage.get(id)! >= 2)
        .sort((a, b) => coverage.get(b)! - coverage.get(a)! || place.get(a)! - place.get(b)!);
    };
    // Notes with every word rank first; notes with some of them follow (see bySomeWords). `full` says whether
    // the last call filled a pool, so that more notes may match than it returned.
    let full = false;
    const allThenAny = (run: (match: string) => number[]): number[] => {
      const every = run(terms.join(' AND '));
      full = every.length >= pool;
      if (terms.length < 2 || full) return every;
      const seen = new Set(every);
      const some = run(terms.join(' OR '));
      full = some.length >= pool;
      return [
        ...every,
        ...bySomeWords(
          some.filter((id) => !seen.has(id)),
          every,
        ),
      ].slice(0, pool);
    };
    const rankedWithFilter = () =>
      allThenAny(
        (match) =>
          (keyedToo
            ? this.#q.get('rankedVisibleKeyedToo').all(match, ...filter, match, ...filter, pool)
            : this.#q.get('rankedVisible').all(match, ...filter, pool)) as number[],
      );
    // Full text ranks in the FTS index alone (cheap); visibility is checked afterwards, and only
    // when part of the pool is hidden is the ranking redone joined with the filter.
    let fetched: number[] = [];
    let fetchedFull = false;
    const filterLater = why !== undefined && wantedLabel === null;
    if (terms.length > 0) {
      fetched = allThenAny(
        (match) =>
          (keyedToo
            ? this.#q.get('rankedKeyedToo').all(match, match, pool)
            : this.#q.get('ranked').all(match, pool)) as number[],
      );
      fetchedFull = full;
      let ranked = filterLater ? fetched : this.#allowedInOrder(fetched, filter);
      if (!filterLater && ranked.length < pool && fetchedFull) ranked = rankedWithFilter();
      textIds = ranked;
    }
    let mode: 'hybrid' | 'full-text' = 'full-text';
    if (why === undefined) {
      try {
        const [vector] = await this.#vectors.embedder!.embed([query]);
        const allowed = wantedLabel === null ? null : (ids: readonly number[]) => this.#allowedInOrder(ids, filter);
        nearestIds = this.#vectors.nearest(vector!, viewer, allowed, VECTOR_POOL);
        mode = 'hybrid';
      } catch (error) {
        why = `the embedder failed (${(error as Error).message}); full-text only`;
        this.#vectors.failed('searching', error);
      }
    }
    const collect = () => {
      const hits: SearchHit[] = [];
      const [ids, scores] = nearestIds ? fused(textIds, nearestIds) : [textIds, undefined];
      // The best notes with their labels in one read, `limit` at a time: most are visible, so one read
      // usually fills the page.
      for (let at = 0; at < ids.length && hits.length < limit; at += limit) {
        const batch = ids.slice(at, at + limit);
        const rows = this.#rows.rowsWithLabels(batch);
        for (let i = 0; i < batch.length && hits.length < limit; i += 1) {
          const found = rows.get(batch[i]!);
          if (found && visibleTo(found.row, viewer))
            hits.push({
              note: this.#rows.hydrateWith(found.row, found.labels),
              score: scores?.[at + i] ?? rrf(at + i),
            });
        }
      }
      return hits;
    };
    let hits = collect();
    if (filterLater && hits.length < limit && fetchedFull) {
      textIds = rankedWithFilter();
      hits = collect();
    }
    return { hits, mode, ...(why ? { why } : {}) };
  }

  /** The IDs of `ids` the filter lets through, in the order given. */
  #allowedInOrder(ids: readonly number[], filter: readonly unknown[]): number[] {
    if (ids.length === 0) return [];
    const allowed = new Set(this.#q.get('allowed').all(JSON.stringify(ids), ...filter) as number[]);
    return ids.filter((id) => allowed.has(id));
  }
}
