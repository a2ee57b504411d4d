// Find duplicates: a walk through the scope's pairs of near-identical notes, one pair at a time.
/** @import { DuplicatePair, LabelCountsAnswer, NoteJson } from '../src/wire.js' */
import * as api from './api.js';
import { $, confirmDelete, el, find, messageOf, status } from './dom.js';
import { card, forget, loadNotes } from './notes.js';
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
  const close = el('button', {
    type: 'button',
    className: 'close-dup',
    text: 'Close',
    onclick: () => (panel.hidden = true),
  });
  /** @type {Set<string>} */
  const skipped = new Set();
  const keyOf = (/** @type {DuplicatePair} */ pair) => `${pair.a.id}:${pair.b.id}`;
  let found = 0;
  // The label the walk is narrowed to (a scope too large to compare at once is compared a label at a time).
  /** @type {string | null} */
  let label = null;
  const where = () => (label === null ? scope : `${scope}, label ${label}`);
  // Closed, or the scope changed, while a request ran: nothing to show.
  const stale = () => panel.hidden || state.scope !== scope;
  const scan = async () => {
    panel.replaceChildren(
      el('p', { className: 'dup-scanning', text: `Looking for near-duplicates in ${where()}…` }),
      el('progress', { className: 'dup-progress', 'aria-label': 'looking for near-duplicates' }),
      close,
    );
    const fail = (/** @type {unknown} */ e) =>
      panel.replaceChildren(el('p', { className: 'dup-error', role: 'alert', text: messageOf(e) }), close);
    // The progress bar ends with the scan, whatever it answered: pairs, an offer of labels, or the error.
    let pairs;
    try {
      // Past the notes one scan compares, the page asks for a label first instead of a scan that would be refused.
      const counts = await api.getLabelCounts(scope);
      if (stale()) return;
      if (tooMany(counts)) return offerLabels(counts);
      ({ pairs } = await api.getDuplicates(scope, label));
    } catch (e) {
      if (stale()) return;
      // Refused for size after all (notes came meanwhile): the labels again, with the counts of now.
      const counts = await api.getLabelCounts(scope).catch(() => null);
      if (stale()) return;
      if (counts && tooMany(counts)) offerLabels(counts);
      else fail(e);
      return;
    }
    if (stale()) return;
    found = Math.max(found, pairs.length);
    show(pairs.filter((pair) => !skipped.has(keyOf(pair)) && !state.gone.has(pair.a.id) && !state.gone.has(pair.b.id)));
  };
  /**
   * Whether the notes this walk compares (the scope's, or its label's) are more than one scan compares.
   * @param {LabelCountsAnswer} counts
   */
  const tooMany = (counts) =>
    (label === null ? counts.total : (counts.labels.find((l) => l.label === label)?.count ?? 0)) > counts.max_compared;
  /**
   * Too many notes to compare at once: says so plainly and offers the scope's labels, each compared alone.
   * @param {LabelCountsAnswer} counts
   */
  const offerLabels = (counts) => {
    const max = counts.max_compared.toLocaleString('en');
    const picker = el('select', { id: 'dup-label' });
    for (const { label: name, count } of counts.labels) {
      const fits = count <= counts.max_compared;
      const option = el('option', {
        value: name,
        text: `${name} (${count.toLocaleString('en')} notes)${fits ? '' : ', more than that'}`,
      });
      if (!fits) option.disabled = true;
      picker.append(option);
    }
    const firstFit = [...picker.options].find((o) => !o.disabled);
    if (firstFit) picker.value = firstFit.value;
    const said = label === null ? `${scope} holds` : `Label ${label} has`;
    panel.replaceChildren(
      el('p', {
        className: 'dup-too-many',
        role: 'alert',
        text:
          `${said} more notes than Find duplicates compares at once (${max}). ` +
          (firstFit
            ? 'Choose a label to compare its notes among themselves.'
            : `Every label has more than ${max} notes too; export the scope and split it into smaller scopes.`),
      }),
      ...(firstFit
        ? [
            el('label', { className: 'dup-choice', text: 'Label ' }, picker),
            el('button', {
              type: 'button',
              className: 'dup-scan-label',
              text: 'Find duplicates in this label',
              onclick: () => {
                label = picker.value;
                scan().catch((e) => status(messageOf(e)));
              },
            }),
          ]
        : []),
      close,
    );
    (firstFit ? picker : close).focus();
  };
  /** A change to the notes, then the list and the walk afresh. @param {() => Promise<void>} fn */
  const act = (fn) => async () => {
    try {
      await fn();
      await loadNotes();
    } catch (e) {
      status(messageOf(e));
    }
    await scan().catch((e) => status(messageOf(e)));
  };
  /** Shows the first pair of those left, or that none are. @param {readonly DuplicatePair[]} left */
  const show = (left) => {
    const [pair] = left;
    if (pair === undefined) {
      panel.replaceChildren(
        el('p', {
          text: found ? 'No more pairs.' : `No near-identical notes${label === null ? '' : ` with label ${label}`}.`,
        }),
        close,
      );
      return;
    }
    const { a, b, similarity } = pair;
    /** A note's card whole, to compare (no buttons). @param {NoteJson} note @param {string} className */
    const whole = (note, className) => {
      const shown = card({ ...note, read_only: true });
      shown.classList.replace('card', 'dup-note');
      shown.classList.add(className);
      shown.querySelector('.overlay')?.remove();
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
        text: `Pair 1 of ${left.length} left (similarity ${similarity})${label === null ? '' : ` · label ${label}`}`,
      }),
      el('div', { className: 'dup-pair' }, whole(a, 'dup-a'), whole(b, 'dup-b')),
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
