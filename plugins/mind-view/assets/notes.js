// The Memories tab: a scope's notes a page at a time, as cards one can edit and delete, with label chips, the
// scope's lockout and the address that names the scope and sort.
/** @import { NoteJson } from '../src/wire.js' */
import * as api from './api.js';
import { $, colorOf, confirmDelete, el, find, findAll, labelBadge, messageOf, status } from './dom.js';
import * as store from './state.js';
import { PAGE_SIZE, state } from './state.js';

/**
 * The scope and sort the address names (`?scope=lab&sort=oldest`), so reload and back keep them.
 * @param {string | undefined} session the console session's scope, where the page opens otherwise
 */
export function fromAddress(session) {
  const params = new URLSearchParams(location.search);
  const sort = params.get('sort');
  const select = $('sort', HTMLSelectElement);
  store.fromAddress(
    params.get('scope') || session || null,
    sort && [...select.options].some((o) => o.value === sort) ? sort : null,
  );
  select.value = state.sort;
}

/** Puts the chosen scope and sort in the address, as a history entry. */
export function toAddress() {
  const params = new URLSearchParams({ scope: state.scope, sort: state.sort });
  if (location.search !== `?${params}`) history.pushState(null, '', `${location.pathname}?${params}`);
}

/** Loads the scopes with their counts and lockouts; the `first` load also reads the address. */
export async function loadScopes(first = false) {
  const { counts, global, lockouts, session } = await api.getScopes();
  if (first) {
    fromAddress(session);
    // The first entry names them too, so going back to it restores them.
    history.replaceState(
      null,
      '',
      `${location.pathname}?${new URLSearchParams({ scope: state.scope, sort: state.sort })}`,
    );
  }
  store.scopesLoaded(global, lockouts);
  renderLockout();
  const select = $('scope', HTMLSelectElement);
  // A scope's list shows the shared global notes over its own: its count says both, as the list's does.
  const shared = counts.find((c) => c.scope === global)?.notes ?? 0;
  select.replaceChildren(
    ...counts.map((c) =>
      el('option', {
        value: c.scope,
        text:
          c.scope === global
            ? `${c.scope} (${c.notes}) · shared by every scope`
            : `${c.scope} (${c.notes}${shared > 0 ? ` + ${shared} ${global}` : ''})`,
      }),
    ),
  );
  select.value = state.scope;
}

/** Whose keyed calls a lockout refuses, in words. */
const LOCKED_FOR = {
  operator: 'keys the operator typed',
  model: "the model's own keys",
  autonomous: 'autonomous episodes',
  mcp: 'MCP clients',
};

/** The selected scope's lockout of keyed calls (too many wrong keys), with the operator's way out. */
export function renderLockout() {
  const box = $('lockout');
  const lock = store.currentLockout();
  box.hidden = !lock;
  if (!lock) return box.replaceChildren();
  const unlock = el('button', {
    type: 'button',
    text: `Unlock ${lock.scope}`,
    onclick: async () => {
      try {
        const { forgotten } = await api.unlockScope(lock.scope);
        await loadScopes();
        status(`scope ${lock.scope} unlocked (${forgotten} wrong keys forgotten)`);
      } catch (e) {
        status(messageOf(e));
      }
    },
  });
  box.replaceChildren(
    el('span', {
      text: `Keyed calls from ${LOCKED_FOR[lock.origin]} in scope ${lock.scope} are refused until ${lock.until} after ${lock.misses} wrong keys. `,
    }),
    unlock,
  );
}

/** Creates the scope the form names and shows it. @param {SubmitEvent} event */
export async function createScope(event) {
  event.preventDefault();
  const input = $('new-scope', HTMLInputElement);
  const name = input.value.trim();
  try {
    await api.createScope(name);
    store.showScope(name);
    toAddress();
    input.value = '';
    await loadScopes();
    await loadNotes();
    status(`scope ${name} created`);
  } catch (e) {
    status(messageOf(e));
  }
}

/** Each load is numbered: an answer that arrives after a newer request was made is dropped. */
let loads = 0;

/**
 * Loads and draws the current page of the scope's notes. A live reload (`live`) that finds an edit form opened
 * while it fetched leaves the cards alone: drawing them would throw the form away; the reload waits for the
 * form to close.
 * @param {{ live?: boolean }} [options]
 * @returns {Promise<void>}
 */
export async function loadNotes(options = {}) {
  const load = ++loads;
  // Set while a page is on its way (tests and screen readers can wait for it to settle).
  document.body.dataset.loading = 'notes';
  const started = performance.now();
  let page;
  try {
    page = await api.getNotes({
      scope: state.scope,
      sort: state.sort,
      limit: PAGE_SIZE,
      label: state.label,
      filter: state.filter,
      after: state.cursors[state.page] ?? null,
      // A live reload of a later page asks for the counts too: notes may have come or gone.
      counts: options.live === true,
    });
  } finally {
    if (load === loads) delete document.body.dataset.loading;
  }
  if (load !== loads) return;
  if (options.live && document.querySelector('.edit-form')) {
    store.setChangedWhileEditing(true);
    return;
  }
  // A live reload can find the page emptied (its notes deleted elsewhere): back to the first page.
  if (page.notes.length === 0 && state.page > 0) {
    store.firstPage();
    return loadNotes(options);
  }
  store.notesLoaded(page);
  document.body.dataset.loadMs = String(Math.round(performance.now() - started));
  render();
}

function renderChips() {
  $('chips').replaceChildren(
    ...state.labels.map(({ label, count }) => {
      const chip = el('button', {
        type: 'button',
        className: `chip${state.label === label ? ' on' : ''}`,
        'data-label': label,
        text: `${label} ${count}`,
        onclick: async () => {
          store.toggleLabel(label);
          try {
            await loadNotes();
          } catch (e) {
            status(messageOf(e));
          }
          // The chips are drawn anew: focus stays on the one the person toggled.
          findAll($('chips'), '.chip')
            .find((c) => c.dataset.label === label)
            ?.focus();
        },
      });
      // Through the CSSOM: the page's content security policy allows no inline style attributes.
      chip.style.setProperty('--chip', colorOf(label));
      return chip;
    }),
  );
}

/**
 * A note's card: its ID, age, labels and key over its text, with ✎ (edit in place) and ✕ (delete) unless it
 * is read-only here.
 * @param {NoteJson & { read_only?: boolean }} note
 */
export function card(note) {
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
  if (note.read_only) {
    // The global overlay: shown in every scope, changed only in the global scope itself.
    box.classList.add('read-only');
    meta.append(el('span', { className: 'overlay', text: `${state.global} · read-only here` }));
    return box;
  }
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
        loadScopes()
          .then(() => loadNotes())
          .catch((e) => status(messageOf(e)));
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
        await loadNotes();
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
      await loadNotes();
    } catch (e) {
      status(messageOf(e));
    }
  });
  box.append(el('div', { className: 'actions' }, edit, remove));
  return box;
}

/** Draws the page of notes in the state: chips, cards, the count and the pager. */
function render() {
  const started = performance.now();
  renderChips();
  const pages = Math.max(1, Math.ceil(state.matching / PAGE_SIZE));
  const from = state.page * PAGE_SIZE;
  $('cards').replaceChildren(...state.notes.map(card));
  const hint = filterHint() ?? emptyScope();
  if (hint) $('cards').prepend(hint);
  // The count always describes what is shown.
  $('count').textContent =
    `${state.matching} of ${state.total} notes` +
    (pages > 1 ? ` · showing ${from + 1}–${from + state.notes.length}` : '');
  $('pager').hidden = pages <= 1;
  $('page-of').textContent = `page ${state.page + 1} of ${pages}`;
  $('prev-page', HTMLButtonElement).disabled = state.page === 0;
  $('next-page', HTMLButtonElement).disabled = state.next === null;
  document.body.dataset.renderMs = String(Math.round(performance.now() - started));
}

/**
 * What the filter found, when it is not every typed word: a filter lists the notes holding every word (the
 * question words left out); when none does, those holding some, most first; when none holds any, nothing.
 * Either way the search that reads a question for its meaning is one keystroke away (Enter in the filter, or
 * this button).
 * @returns {HTMLElement | null}
 */
function filterHint() {
  const typed = state.filter.trim();
  if (typed === '' || (state.matching > 0 && !state.partial)) return null;
  const none = state.matching === 0;
  return el(
    'p',
    { className: none ? 'empty-filter' : 'partial-filter', role: 'status' },
    el('span', {
      text: none
        ? `No note holds any word of "${typed}". `
        : `No note holds every word of "${typed}": these hold some of them, most first. `,
    }),
    el('button', {
      type: 'button',
      className: 'search-instead',
      text: 'Search as Mira does (Enter)',
      onclick: () => searchFor(state.filter),
    }),
  );
}

/**
 * A scope without a note (the global ones included): where notes come from.
 * @returns {HTMLElement | null}
 */
function emptyScope() {
  if (state.total > 0 || state.filter.trim() !== '' || state.label !== null) return null;
  return el(
    'div',
    { className: 'empty-state' },
    el('p', { text: `No notes in ${state.scope} yet.` }),
    el('p', {
      text:
        'Ask Mira to remember something in conversation, save one on the console (notes save "…"), or import ' +
        'a file exported from another scope or robot with Import above.',
    }),
  );
}

/** The next (1) or previous (-1) page of notes. @param {1 | -1} delta */
export async function goToPage(delta) {
  if (!store.turnPage(delta)) return;
  try {
    await loadNotes();
  } catch (e) {
    status(messageOf(e));
  }
  $('cards').scrollIntoView({ block: 'start' });
}

/** A note is gone: out of the search results, and out of the duplicates walk. @param {number} id */
export function forget(id) {
  store.forget(id);
  for (const shown of document.querySelectorAll(`#search-results .card[data-id="${id}"]`)) shown.remove();
}

/** Runs the store's own search for `text`, as if typed into its box. @param {string} text */
export function searchFor(text) {
  $('search', HTMLInputElement).value = text.trim();
  $('store-search', HTMLFormElement).requestSubmit();
}

/** The store's own search, shown above the list. @param {SubmitEvent} event */
export async function storeSearch(event) {
  event.preventDefault();
  const q = $('search', HTMLInputElement).value.trim();
  const panel = $('search-results');
  if (!q) {
    panel.hidden = true;
    return;
  }
  try {
    const result = await api.searchNotes(state.scope, q);
    panel.hidden = false;
    panel.replaceChildren(
      el('h2', { text: `Search "${q}"` }),
      el('p', {
        className: 'search-mode',
        text: `${result.hits.length} found · ${result.mode === 'hybrid' ? 'full text and meaning' : 'full text'}${result.why ? ` (${result.why})` : ''}`,
      }),
      result.hits.length === 0
        ? el('p', {
            className: 'empty-state',
            text:
              'No note answers this. Try other words or fewer of them; a note with a private key is found ' +
              'only with its key, so look for it in the list below, where keyed notes show their keys.',
          })
        : el('div', { className: 'cards' }, ...result.hits.map((hit) => card(hit))),
      el('button', {
        type: 'button',
        className: 'close-search',
        text: 'Close search',
        onclick: () => (panel.hidden = true),
      }),
    );
  } catch (e) {
    status(messageOf(e));
  }
}
