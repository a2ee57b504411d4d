// A note's history on its card: each earlier text and its labels, newest first, with the words that the
// next text changed marked (removed words struck through, added ones underlined).
/** @import { HistoryAnswer, NoteJson } from '../src/wire.js' */
import * as api from './api.js';
import { el, messageOf } from './dom.js';
import { state } from './state.js';

/**
 * The words of `before` and `after` in order, each kept, removed (only in `before`) or added (only in
 * `after`): a longest common subsequence of words (a note is at most 512 characters, so a table of its
 * words is small). Where both changed, the removed words come first. Words are split at white space.
 * @param {string} before @param {string} after
 * @returns {Array<{ word: string, kind: 'same' | 'removed' | 'added' }>}
 */
export function wordDiff(before, after) {
  const a = before.split(/\s+/u).filter(Boolean);
  const b = after.split(/\s+/u).filter(Boolean);
  // longest[i][j]: the longest common run of a[i…] and b[j…].
  const longest = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      longest[i][j] = a[i] === b[j] ? longest[i + 1][j + 1] + 1 : Math.max(longest[i + 1][j], longest[i][j + 1]);
  /** @type {Array<{ word: string, kind: 'same' | 'removed' | 'added' }>} */
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ word: /** @type {string} */ (a[i]), kind: 'same' });
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || longest[i + 1][j] >= longest[i][j + 1])) {
      out.push({ word: /** @type {string} */ (a[i]), kind: 'removed' });
      i += 1;
    } else {
      out.push({ word: /** @type {string} */ (b[j]), kind: 'added' });
      j += 1;
    }
  }
  return out;
}

/**
 * Words as a paragraph's children, a space between each, those of `marked` kinds in elements of their own.
 * @param {ReturnType<typeof wordDiff>} words
 * @param {(kind: 'removed' | 'added') => 'del' | 'ins' | 'mark'} tag
 */
export function spaced(words, tag) {
  return words.flatMap(({ word, kind }, at) => [
    at === 0 ? '' : ' ',
    kind === 'same' ? word : el(tag(kind), { text: word, ...(tag(kind) === 'mark' ? { className: 'differs' } : {}) }),
  ]);
}

/** What replaced a version, in words. @param {HistoryAnswer['versions'][number]} v */
function replacedBy(v) {
  const when = new Date(v.replaced_at).toLocaleString();
  if (v.cause === 'combined') return `N${v.from_note}, combined into this note on ${when}`;
  if (v.cause === 'combine') return `before N${v.from_note} was combined into it, ${when}`;
  return `before the ${v.cause} of ${when}`;
}

/** A version's text with the words the next text changed marked. @param {string} before @param {string} after */
function marked(before, after) {
  return el(
    'p',
    { className: 'history-text' },
    ...spaced(wordDiff(before, after), (kind) => (kind === 'removed' ? 'del' : 'ins')),
  );
}

/**
 * The note's history as a list under its card (fetched when asked for): each version newest first, its words
 * compared with the text that replaced it (a combined note's with the kept note's text then).
 * @param {NoteJson} note
 */
export async function historyOf(note) {
  const box = el('section', { className: 'history', 'aria-label': `History of N${note.id}` });
  let answer;
  try {
    answer = await api.getHistory(state.scope, note.id);
  } catch (e) {
    box.append(el('p', { className: 'status', role: 'status', text: messageOf(e) }));
    return box;
  }
  if (answer.versions.length === 0) {
    box.append(el('p', { text: 'No earlier text: this note has not been edited, relabelled or combined.' }));
    return box;
  }
  let newer = note.content;
  const items = answer.versions.map((v) => {
    const item = el(
      'li',
      {},
      el('p', { className: 'meta', text: `${replacedBy(v)} · labels: ${v.labels.join(', ') || 'none'}` }),
      marked(v.content, newer),
    );
    if (v.cause !== 'combined') newer = v.content;
    return item;
  });
  box.append(
    el('h2', { text: `Earlier texts of N${note.id} (struck: words the next text removed; underlined: added)` }),
    el('ol', { className: 'history-list' }, ...items),
  );
  return box;
}
