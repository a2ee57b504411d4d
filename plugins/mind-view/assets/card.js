// A note's card on the Memories tab: its ID, age, labels and key over its text, with editing in place and delete.
/** @import { NoteJson } from '../src/wire.js' */
import * as api from './api.js';
import { confirmDelete, el, find, labelBadge, messageOf, status } from './dom.js';
import { historyOf } from './history.js';
import { renderSelection } from './selection.js';
import * as store from './state.js';
import { state } from './state.js';

/**
 * What a card calls after it changed a note: the list drawn again, and the scopes' counts too with `scopes`.
 * @typedef {(options?: { scopes?: boolean }) => Promise<void>} Reload
 */

/**
 * A note's card: its ID, age, labels and key over its text, with ✎ (edit in place) and ✕ (delete) unless it
 * is read-only here.
 * @param {NoteJson & { read_only?: boolean }} note
 * @param {Reload} reload what the card calls once it changed the note
 */
export function card(note, reload) {
  const meta = el(
    'div',
    { className: 'meta' },
    el('span', { text: `N${note.id}` }),
    el('span', { text: note.age }),
    ...(note.labels.length ? note.labels : ['unlabeled']).map(labelBadge),
  );
  if (note.private_key !== null) meta.append(el('span', { className: 'key', text: `key: ${note.private_key}` }));
  const text = el('p', { className: 'content', text: note.content });
  const box = el('article', { className: 'card', 'data-id': String(note.id) }, meta, text);
  const past = historyButton(note, box);
  if (note.read_only) {
    // The global overlay: shown in every scope, changed only in the global scope itself.
    box.classList.add('read-only');
    meta.append(el('span', { className: 'overlay', text: `${state.global} · read-only here` }));
    box.append(el('div', { className: 'card-foot' }, past));
    return box;
  }
  // Ticked for a change to many at once (selection.js); first in the card, so Tab meets it before ✎ and ✕.
  const tick = el('input', { type: 'checkbox', className: 'select', 'data-id': String(note.id) });
  tick.setAttribute('aria-label', `Select N${note.id}`);
  tick.checked = state.selected.has(note.id);
  tick.addEventListener('change', () => {
    store.select(note.id, tick.checked);
    renderSelection();
  });
  meta.prepend(tick);
  const edit = el('button', { type: 'button', title: 'Edit', className: 'edit', text: '✎' });
  const remove = el('button', { type: 'button', title: 'Delete', className: 'delete', text: '✕' });
  edit.addEventListener('click', () => {
    if (box.querySelector('.editor')) return; // already editing: one form per card
    const area = el('textarea', { className: 'editor', 'aria-label': `Text of N${note.id}` });
    area.value = note.content;
    const labels = el('input', {
      className: 'labels-editor',
      'aria-label': `Labels of N${note.id}`,
      placeholder: 'labels, comma-separated',
    });
    labels.value = note.labels.join(', ');
    const form = el(
      'div',
      { className: 'edit-form' },
      el('label', { text: 'Text' }, area),
      el('label', { text: 'Labels' }, labels),
    );
    const save = el('button', { type: 'button', className: 'save', text: 'Save' });
    const cancel = el('button', { type: 'button', className: 'cancel', text: 'Cancel' });
    // In the form, after its fields: Tab goes Text → Labels → Save → Cancel, and ✎ and ✕ Delete come last.
    form.append(el('div', { className: 'edit-buttons' }, save, cancel));
    const close = () => {
      form.replaceWith(text);
      // Back where the person started the edit.
      edit.focus();
      if (state.changedWhileEditing) {
        store.setChangedWhileEditing(false);
        reload({ scopes: true }).catch((e) => status(messageOf(e)));
      }
    };
    cancel.addEventListener('click', close);
    // Esc cancels from any field of the editor, its buttons included.
    form.addEventListener('keydown', (e) => e.key === 'Escape' && close());
    // Enter in the labels saves; in the text, where Enter is a new line, Ctrl+Enter (⌘+Enter) does.
    labels.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        save.click();
      }
    });
    area.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        save.click();
      }
    });
    save.addEventListener('click', async () => {
      try {
        const result = await api.editNote(state.scope, note.id, area.value, labels.value);
        status(`N${note.id} saved${result.cut ? `; trimmed to 512 characters, cut: "${result.cut}"` : ''}`);
        store.setChangedWhileEditing(false); // the reload below takes them in
        await reload();
        find(document, `.card[data-id="${note.id}"] .edit`)?.focus();
      } catch (e) {
        status(messageOf(e));
      }
    });
    text.replaceWith(form);
    area.focus();
  });
  remove.addEventListener('click', async () => {
    if (!confirmDelete(note.id)) return;
    try {
      await api.deleteNote(state.scope, note.id);
      status(`N${note.id} deleted`);
      forget(note.id);
      await reload();
    } catch (e) {
      status(messageOf(e));
    }
  });
  box.append(el('div', { className: 'actions' }, edit, remove), el('div', { className: 'card-foot' }, past));
  return box;
}

/** A note is gone: out of the search results, and out of the duplicates walk. @param {number} id */
export function forget(id) {
  store.forget(id);
  for (const shown of document.querySelectorAll(`#search-results .card[data-id="${id}"]`)) shown.remove();
}

/**
 * The card's History button: shows the note's earlier texts under it (history.js), or hides them again.
 * @param {NoteJson} note @param {HTMLElement} box
 */
function historyButton(note, box) {
  const button = el('button', { type: 'button', className: 'history-button', text: 'History' });
  button.setAttribute('aria-expanded', 'false');
  button.addEventListener('click', async () => {
    const shown = box.querySelector('.history');
    if (shown) {
      shown.remove();
      button.setAttribute('aria-expanded', 'false');
      return;
    }
    button.setAttribute('aria-expanded', 'true');
    box.append(await historyOf(note));
  });
  return button;
}
