// Find duplicates: a walk through the scope's pairs of near-identical notes, one pair at a time.
/** @import { DuplicatePair, NoteJson } from '../src/wire.js' */
import * as api from './api.js';
import { ApiFailure } from './api.js';
import { $, confirmDelete, el, find, messageOf, status } from './dom.js';
import { card, forget } from './card.js';
import { spaced, wordDiff } from './history.js';
import { loadNotes, reload } from './notes.js';
import { state } from './state.js';

/**
 * The duplicates walk: one pair at a time, from a list fetched afresh after every combine or delete (so a
 * kept note shows its new labels and a removed one never comes back); Skip and Skip all pass pairs over
 * for this walk. Combine asks which note's text to keep, then confirms.
 */
export async function findDuplicates() {
  const panel = $('duplicates');
  const scope = state.scope;
  panel.hidden = false;
  // The scan running, if any: closing the panel stops it (on the server too).
  /** @type {AbortController | null} */
  let running = null;
  const close = el('button', {
    type: 'button',
    className: 'close-dup',
    text: 'Close',
    onclick: () => {
      panel.hidden = true;
      running?.abort();
    },
  });
  /** @type {Set<string>} */
  const skipped = new Set();
  const keyOf = (/** @type {DuplicatePair} */ pair) => `${pair.a.id}:${pair.b.id}`;
  let found = 0;
  // Closed, or the scope changed, while a request ran: nothing to show.
  const stale = () => panel.hidden || state.scope !== scope;
  const again = (/** @type {string} */ text) =>
    el('button', { type: 'button', className: 'dup-again', text, onclick: () => void scan().catch(shown) });
  const shown = (/** @type {unknown} */ e) => status(messageOf(e));
  /**
   * The scan of any number of notes, with its progress and a Stop button; every way it ends replaces the
   * progress bar: the walk, "stopped", or the error with what to do.
   */
  const scan = async () => {
    const controller = new AbortController();
    running = controller;
    const bar = el('progress', { className: 'dup-progress', 'aria-label': 'looking for near-duplicates' });
    const said = el('p', { className: 'dup-scanning', text: `Looking for near-duplicates in ${scope}…` });
    const stop = el('button', {
      type: 'button',
      className: 'stop-dup',
      text: 'Stop',
      onclick: () => controller.abort(),
    });
    panel.replaceChildren(said, bar, stop, close);
    stop.focus();
    let pairs;
    try {
      ({ pairs } = await api.scanDuplicates(
        scope,
        null,
        (done, total) => {
          // Another scope chosen meanwhile: this scan's answer would never be shown.
          if (stale()) controller.abort();
          bar.max = Math.max(total, 1);
          bar.value = done;
          said.textContent = `Looking for near-duplicates in ${scope}… ${Math.floor((100 * done) / Math.max(total, 1))} %`;
        },
        controller.signal,
      ));
    } catch (e) {
      if (stale()) return;
      if (controller.signal.aborted) {
        panel.replaceChildren(
          el('p', { className: 'dup-stopped', role: 'status', text: 'Stopped. Nothing was changed.' }),
          again('Find duplicates again'),
          close,
        );
      } else {
        panel.replaceChildren(
          el('p', { className: 'dup-error', role: 'alert', text: whatToDo(e) }),
          again('Try again'),
          close,
        );
      }
      find(panel, '.dup-again')?.focus();
      return;
    } finally {
      if (running === controller) running = null;
    }
    if (stale()) return;
    found = Math.max(found, pairs.length);
    show(pairs.filter((pair) => !skipped.has(keyOf(pair)) && !state.gone.has(pair.a.id) && !state.gone.has(pair.b.id)));
  };
  /** A change to the notes, then the list and the walk afresh. @param {() => Promise<void>} fn */
  const act = (fn) => async () => {
    try {
      await fn();
      await loadNotes();
    } catch (e) {
      status(messageOf(e));
    }
    await scan().catch(shown);
  };
  /** Shows the first pair of those left, or that none are. @param {readonly DuplicatePair[]} left */
  const show = (left) => {
    const [pair] = left;
    if (pair === undefined) {
      panel.replaceChildren(
        el('p', {
          text: found ? 'No more pairs.' : 'No near-identical notes.',
        }),
        close,
      );
      return;
    }
    const { a, b, similarity } = pair;
    /** A note's card whole, to compare (no buttons). @param {NoteJson} note @param {string} className */
    const whole = (note, className) => {
      const shown = card({ ...note, read_only: true }, reload);
      shown.classList.replace('card', 'dup-note');
      // Drawn as a card without its buttons, but not read-only: the walk's own buttons act on it.
      shown.classList.remove('read-only');
      shown.classList.add(className);
      shown.querySelector('.overlay')?.remove();
      shown.querySelector('.card-foot')?.remove();
      return shown;
    };
    /** @param {NoteJson} note @param {boolean} checked */
    const choice = (note, checked) =>
      el(
        'label',
        { className: 'dup-choice' },
        el('input', { type: 'radio', name: 'dup-keep', value: String(note.id), ...(checked ? { checked: '' } : {}) }),
        document.createTextNode(` Keep the text of N${note.id}`),
      );
    const chosen = () => find(confirmBox, 'input[name="dup-keep"]:checked', HTMLInputElement);
    const confirmBox = el(
      'div',
      { className: 'dup-confirm', hidden: '' },
      el('p', { text: 'Which text stays? The other note is removed; the one kept gets the labels of both.' }),
      choice(a, true),
      choice(b, false),
      el('button', {
        type: 'button',
        className: 'confirm-combine',
        text: 'Combine',
        onclick: act(async () => {
          const keep = Number(chosen()?.value);
          const drop = keep === a.id ? b.id : a.id;
          await api.combineNotes(scope, keep, drop);
          forget(drop);
          status(`N${keep} kept, with the labels of both; N${drop} removed`);
        }),
      }),
      el('button', {
        type: 'button',
        className: 'cancel-combine',
        text: 'Cancel',
        onclick: () => {
          confirmBox.hidden = true;
          find(panel, '.combine')?.focus();
        },
      }),
    );
    const deleteB = act(async () => {
      await api.deleteNote(scope, b.id);
      forget(b.id);
    });
    panel.replaceChildren(
      el('p', {
        text: `Pair 1 of ${left.length} left (similarity ${similarity})`,
      }),
      el('div', { className: 'dup-pair' }, ...differing(whole(a, 'dup-a'), whole(b, 'dup-b'), a, b)),
      el('button', {
        type: 'button',
        className: 'combine',
        text: 'Combine…',
        onclick: () => {
          confirmBox.hidden = false;
          chosen()?.focus();
        },
      }),
      el('button', {
        type: 'button',
        className: 'delete-dup',
        text: `Delete N${b.id}…`,
        onclick: async () => {
          if (confirmDelete(b.id)) await deleteB();
        },
      }),
      el('button', {
        type: 'button',
        className: 'skip',
        text: 'Skip',
        onclick: () => {
          skipped.add(keyOf(pair));
          show(left.slice(1));
        },
      }),
      el('button', {
        type: 'button',
        className: 'skip-all',
        text: 'Skip all',
        onclick: () => {
          for (const p of left) skipped.add(keyOf(p));
          show([]);
        },
      }),
      close,
      confirmBox,
    );
  };
  await scan();
}

/**
 * A failed scan as the page says it: an API error carries its code and what to do; a request that never
 * got an answer (the runtime stopped, the network) says to check Mira.
 * @param {unknown} error
 */
function whatToDo(error) {
  if (error instanceof ApiFailure) return error.message;
  return `The scan got no answer (${messageOf(error)}). Check that Mira is still running, then try again.`;
}

/**
 * The pair's cards with the words that differ marked (`<mark>`): on the first, its words the second lacks; on
 * the second, its words the first lacks.
 * @param {HTMLElement} cardA @param {HTMLElement} cardB @param {NoteJson} a @param {NoteJson} b
 */
function differing(cardA, cardB, a, b) {
  const words = wordDiff(a.content, b.content);
  const marked = (/** @type {'removed' | 'added'} */ own) =>
    spaced(
      words.filter(({ kind }) => kind === 'same' || kind === own),
      () => 'mark',
    );
  cardA.querySelector('.content')?.replaceChildren(...marked('removed'));
  cardB.querySelector('.content')?.replaceChildren(...marked('added'));
  return [cardA, cardB];
}
