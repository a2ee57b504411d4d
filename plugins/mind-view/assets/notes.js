// The Memories tab's list: a scope's notes a page at a time as cards (card.js), with label chips, the count, the
// pager and what an empty list or a filter that finds little says. (Scopes and the address: scopes.js.)
/** @import { Reload } from './card.js' */
import * as api from './api.js';
import { card } from './card.js';
import { $, colorOf, el, findAll, messageOf, status } from './dom.js';
import { loadScopes } from './scopes.js';
import { searchFor } from './search.js';
import { renderSelection } from './selection.js';
import * as store from './state.js';
import { PAGE_SIZE, state } from './state.js';

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
      since: state.changed.since,
      until: state.changed.until,
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
 * After a change made on the page: the list drawn again, after the scopes' counts with `scopes`.
 * @type {Reload}
 */
export async function reload(options = {}) {
  if (options.scopes) await loadScopes();
  await loadNotes();
}

/** Draws the page of notes in the state: chips, cards, the count and the pager. */
function render() {
  const started = performance.now();
  renderChips();
  const pages = Math.max(1, Math.ceil(state.matching / PAGE_SIZE));
  const from = state.page * PAGE_SIZE;
  $('cards').replaceChildren(...state.notes.map((note) => card(note, reload)));
  renderSelection();
  const hint = filterHint() ?? emptyScope() ?? emptyTimes();
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
  if (state.total > 0 || state.filter.trim() !== '' || state.label !== null || changedBounded()) return null;
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

/**
 * A time filter no note passes (the label and filter aside): what to do.
 * @returns {HTMLElement | null}
 */
function emptyTimes() {
  if (state.matching > 0 || !changedBounded() || state.filter.trim() !== '') return null;
  return el('p', {
    className: 'empty-state',
    text: 'No note was added or changed in this time. Choose a longer time, or any time, under "Added or changed".',
  });
}

/** Whether the list is narrowed to notes changed within some time. */
const changedBounded = () => state.changed.since !== null || state.changed.until !== null;

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
