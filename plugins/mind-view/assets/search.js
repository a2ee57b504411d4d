// The search that reads a question as Mira does (full text and meaning), shown above the Memories tab's list.
/** @import { Reload } from './card.js' */
import * as api from './api.js';
import { card } from './card.js';
import { $, el, messageOf, status } from './dom.js';
import { state } from './state.js';

/** Runs the store's own search for `text`, as if typed into its box. @param {string} text */
export function searchFor(text) {
  $('search', HTMLInputElement).value = text.trim();
  $('store-search', HTMLFormElement).requestSubmit();
}

/**
 * The store's own search, shown above the list; its hits are cards one can edit (`reload` draws the list again).
 * @param {SubmitEvent} event
 * @param {Reload} reload
 */
export async function storeSearch(event, reload) {
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
        : el('div', { className: 'cards' }, ...result.hits.map((hit) => card(hit, reload))),
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
