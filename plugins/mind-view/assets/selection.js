// The Memories tab's selection: notes ticked on their cards (across pages), then deleted or relabelled all at
// once. The server changes all of them in one transaction or none (a note gone or read-only refuses the whole).
/** @import { Reload } from './card.js' */
/** @import { NotesExportJson } from '../src/wire.js' */
import * as api from './api.js';
import { $, el, findAll, messageOf, status } from './dom.js';
import * as store from './state.js';
import { state } from './state.js';

/** "1 note", "3 notes". @param {number} n */
const notesWord = (n) => `${n} ${n === 1 ? 'note' : 'notes'}`;

/**
 * The selection bar's controls, made once; `reload` draws the list after a change.
 * @param {Reload} reload
 */
export function wireSelection(reload) {
  const bar = $('selection');
  const add = el('input', { id: 'relabel-add', placeholder: 'e.g. kitchen, weekly' });
  const remove = el('input', { id: 'relabel-remove', placeholder: 'e.g. old' });
  const done = async (/** @type {string} */ said) => {
    store.clearSelection();
    add.value = '';
    remove.value = '';
    await reload({ scopes: true });
    status(said);
  };
  bar.replaceChildren(
    el('span', { id: 'selected-count', role: 'status' }),
    el('span', { id: 'deleted-export' }),
    el('button', { type: 'button', id: 'select-page', text: 'Select all on this page', onclick: selectPage }),
    el('button', {
      type: 'button',
      id: 'select-matching',
      text: 'Select every matching note',
      onclick: selectMatching,
    }),
    el('button', { type: 'button', id: 'clear-selection', text: 'Clear selection', onclick: () => clear() }),
    el('button', {
      type: 'button',
      id: 'delete-selected',
      text: 'Delete selected…',
      onclick: () =>
        act(async (ids) => {
          if (!window.confirm(`Delete ${notesWord(ids.length)}? This cannot be undone.`)) return;
          const answer = await api.deleteNotes(state.scope, ids);
          for (const id of answer.deleted) store.forget(id);
          await done(`${notesWord(answer.deleted.length)} deleted`);
          offerBack(answer.export);
        }),
    }),
    el(
      'form',
      { id: 'relabel-form', className: 'inline-form' },
      el('label', { text: 'Add labels ' }, add),
      el('label', { text: 'Remove labels ' }, remove),
      el('button', { type: 'submit', text: 'Relabel selected' }),
    ),
  );
  $('relabel-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void act(async (ids) => {
      if (add.value.trim() === '' && remove.value.trim() === '') {
        status('write the labels to add or remove, separated by commas');
        return;
      }
      const { notes } = await api.relabelNotes(state.scope, ids, add.value, remove.value);
      await done(`${notesWord(notes.length)} relabelled`);
    });
  });
  renderSelection();
}

/**
 * After a delete: the deleted notes as an export file to download, which Import puts back (the undo of a
 * delete, kept by the person rather than the page).
 * @param {NotesExportJson} file
 */
function offerBack(file) {
  const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
  $('deleted-export').replaceChildren(
    el('a', {
      href: URL.createObjectURL(blob),
      download: `mira-notes-${file.scope}-deleted.json`,
      text: `Download the ${notesWord(file.notes.length)} deleted (Import puts them back)`,
    }),
  );
}

/** A change to the ticked notes; a refusal (one gone or read-only) is said, and nothing was changed. */
async function act(/** @type {(ids: number[]) => Promise<void>} */ change) {
  try {
    await change([...state.selected]);
  } catch (e) {
    status(messageOf(e));
  }
}

/** Ticks every note of the page that can be changed here (the global overlay's cannot). */
function selectPage() {
  for (const box of findAll(document, '#cards .card .select', HTMLInputElement)) {
    box.checked = true;
    store.select(Number(box.dataset.id), true);
  }
  renderSelection();
}

/** Ticks every note the list shows with its filters, on every page (the global overlay's apart), up to 1000. */
async function selectMatching() {
  try {
    const { ids, more } = await api.getMatchingIds({
      scope: state.scope,
      sort: state.sort,
      label: state.label,
      filter: state.filter,
      since: state.changed.since,
      until: state.changed.until,
    });
    for (const id of ids) store.select(id, true);
    for (const box of findAll(document, '.card .select', HTMLInputElement))
      box.checked = state.selected.has(Number(box.dataset.id));
    renderSelection();
    if (more) status(`${notesWord(ids.length)} selected, the most one change takes: change them, then select again`);
  } catch (e) {
    status(messageOf(e));
  }
}

/** Unticks everything. */
function clear() {
  store.clearSelection();
  for (const box of findAll(document, '.card .select', HTMLInputElement)) box.checked = false;
  renderSelection();
  $('select-page').focus();
}

/** Shows the bar with the count while notes are ticked. */
export function renderSelection() {
  const count = state.selected.size;
  // Shown while the page has a note one can tick, so "Select all on this page" is there before any is ticked.
  $('selection').hidden = count === 0 && $('cards').querySelector('.select') === null;
  $('selected-count').textContent = count === 0 ? 'No note selected' : `${notesWord(count)} selected`;
  for (const id of ['delete-selected', 'clear-selection']) $(id, HTMLButtonElement).disabled = count === 0;
  findAll(document, '#relabel-form button', HTMLButtonElement).forEach((b) => (b.disabled = count === 0));
}
