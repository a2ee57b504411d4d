// The Mind view's entry: wires the page's controls to the tabs' modules, loads what is on screen, and keeps it
// up to date as the stores change. (index.html loads it as an ES module; the modules it imports are beside it.)
/** @import { ChangeEvent } from '../src/wire.js' */
import { hasToken, listenForChanges } from './api.js';
import { wireDates } from './dates.js';
import { $, messageOf, status } from './dom.js';
import { findDuplicates } from './duplicates.js';
import { browseEntities, findEntities, wireEntityForms } from './entities.js';
import { goToPage, loadNotes, reload } from './notes.js';
import { loadPending, pendingStatus } from './pending.js';
import { createScope, fromAddress, loadScopes, renderLockout, toAddress } from './scopes.js';
import { searchFor, storeSearch } from './search.js';
import { wireSelection } from './selection.js';
import * as store from './state.js';
import { state } from './state.js';
import { exportScope, importFile } from './transfer.js';

/**
 * Reloads what is on screen after a change elsewhere (the model, the console, another process).
 * @param {ChangeEvent} changed
 */
async function onChange(changed) {
  try {
    if (changed.notes && document.querySelector('.edit-form')) {
      // Re-rendering the cards now would throw away what the operator is typing.
      store.setChangedWhileEditing(true);
    } else if (changed.notes) {
      await loadScopes();
      await loadNotes({ live: true });
    }
    if (changed.memory && !$('entities').hidden && !$('entity-list').hidden) await browseEntities({ live: true });
    if (changed.memory) await loadPending();
  } catch (e) {
    status(messageOf(e));
  }
}

/** @param {'memories' | 'entities' | 'pending'} name */
function showTab(name) {
  for (const tab of /** @type {const} */ (['memories', 'entities', 'pending'])) {
    $(tab).hidden = name !== tab;
    $(`tab-${tab}`).classList.toggle('active', name === tab);
  }
  if (name === 'pending') loadPending().catch((e) => pendingStatus(messageOf(e)));
}

document.addEventListener('DOMContentLoaded', async () => {
  $('tab-memories').addEventListener('click', () => showTab('memories'));
  $('tab-entities').addEventListener('click', () => showTab('entities'));
  $('tab-pending').addEventListener('click', () => showTab('pending'));
  $('new-scope-form').addEventListener('submit', (e) => createScope(e, loadNotes));
  $('store-search').addEventListener('submit', (e) => storeSearch(e, reload));
  $('prev-page').addEventListener('click', () => goToPage(-1));
  $('next-page').addEventListener('click', () => goToPage(1));
  $('entity-browse').addEventListener('submit', (e) => {
    e.preventDefault();
    store.browseType($('entity-type', HTMLInputElement).value.trim());
    browseEntities();
  });
  $('entity-prev').addEventListener('click', () => {
    store.turnEntityPage(-1);
    browseEntities();
  });
  $('entity-next').addEventListener('click', () => {
    store.turnEntityPage(1);
    browseEntities();
  });
  // The filter asks the server once typing pauses (every word, in any order, folded as the store folds).
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let filtering;
  const filter = $('filter', HTMLInputElement);
  filter.addEventListener('input', () => {
    store.filterBy(filter.value);
    status('');
    clearTimeout(filtering);
    document.body.dataset.loading = 'notes';
    filtering = setTimeout(() => loadNotes().catch((error) => status(messageOf(error))), 120);
  });
  // Enter in the filter asks the search instead: one keystroke from "0 notes" to what the search finds.
  filter.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && filter.value.trim() !== '') {
      e.preventDefault();
      searchFor(filter.value);
    }
  });
  const sort = $('sort', HTMLSelectElement);
  sort.addEventListener('change', async () => {
    store.sortBy(sort.value);
    toAddress();
    try {
      await loadNotes();
    } catch (error) {
      status(messageOf(error));
    }
  });
  const scope = $('scope', HTMLSelectElement);
  scope.addEventListener('change', async () => {
    store.showScope(scope.value);
    // A walk of another scope's pairs ends with it.
    $('duplicates').hidden = true;
    toAddress();
    renderLockout();
    $('search-results').hidden = true;
    status('');
    await loadNotes();
  });
  $('find-duplicates').addEventListener('click', () => findDuplicates().catch((e) => status(messageOf(e))));
  $('export').addEventListener('click', () => exportScope().catch((e) => status(messageOf(e))));
  const file = $('import', HTMLInputElement);
  file.addEventListener('change', () => file.files?.[0] && importFile(file.files[0]));
  $('entity-find').addEventListener('click', findEntities);
  $('entity-name').addEventListener('keydown', (e) => e.key === 'Enter' && findEntities());
  wireEntityForms();
  wireSelection(reload);
  wireDates(() => loadNotes());
  if (!hasToken()) {
    status('No access token: open the address the console printed (it ends with #token=…).');
    return;
  }
  // Back and forward move between the scopes and sorts chosen, as the address records them.
  window.addEventListener('popstate', async () => {
    fromAddress(undefined);
    store.firstPage();
    scope.value = state.scope;
    renderLockout();
    try {
      await loadNotes();
    } catch (e) {
      status(messageOf(e));
    }
  });
  try {
    await loadScopes(true);
    await loadNotes();
    await browseEntities();
    await loadPending();
  } catch (e) {
    status(messageOf(e));
  }
  void listenForChanges(onChange, (live) => (document.body.dataset.live = live ? 'on' : 'off'));
});
