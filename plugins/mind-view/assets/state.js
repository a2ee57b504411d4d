// What the page knows between events, in one store object. Other modules read it through `state` (read-only to
// the type checker) and change it only through the functions below, each named for what happened.
/** @import { LabelCount, Lockout, NotesPage, ShownNote } from '../src/wire.js' */

/** Cards on one page: the server sends one page at a time, however many notes the scope holds. */
export const PAGE_SIZE = 100;

/**
 * @typedef {object} State
 * @property {readonly ShownNote[]} notes the notes on screen: one page of the scope's, as the server sorted,
 *   filtered and counted them
 * @property {number} total every note of the scope (the global ones included)
 * @property {number} matching the notes that pass the label and the filter
 * @property {boolean} partial no note holds every word of the filter: the notes shown hold some, most first
 * @property {string | null} next the cursor of the page after this one, null on the last
 * @property {readonly LabelCount[]} labels the scope's most common labels, for the chips
 * @property {readonly (string | null)[]} cursors the cursor each page starts after (`cursors[page]`; the first
 *   page starts at the top)
 * @property {number} page which page is on screen, from 0
 * @property {string} filter the instant filter's text
 * @property {string} sort newest, oldest, longest, shortest or label
 * @property {string | null} label the label chip chosen, if any
 * @property {string} scope the scope on screen
 * @property {string} global the global scope's name
 * @property {readonly Lockout[]} lockouts scopes whose keyed calls are refused
 * @property {ReadonlySet<number>} gone notes deleted or combined away on this page: no panel shows them again
 *   (a walk's list is from before)
 * @property {boolean} changedWhileEditing notes changed elsewhere while a card was being edited: reloaded
 *   once the edit form closes
 * @property {Readonly<{ offset: number, limit: number, type: string }>} entities the page of entities browsed
 */

/** @type {Set<number>} */
const gone = new Set();

/** @type {State} */
const store = {
  notes: [],
  total: 0,
  matching: 0,
  partial: false,
  next: null,
  labels: [],
  cursors: [null],
  page: 0,
  filter: '',
  sort: 'newest',
  label: null,
  scope: 'default',
  global: 'global',
  lockouts: [],
  gone,
  changedWhileEditing: false,
  entities: { offset: 0, limit: 25, type: '' },
};

/** The page's state; change it through this module's functions. @type {Readonly<State>} */
export const state = store;

/** Back to the first page (the sort, label, filter or scope changed). */
export function firstPage() {
  store.page = 0;
  store.cursors = [null];
}

/**
 * Another scope is shown, from its first page and with no label chosen. @param {string} scope
 */
export function showScope(scope) {
  store.scope = scope;
  store.label = null;
  firstPage();
}

/**
 * The scope and sort the address names (either may be absent), on top of what is shown.
 * @param {string | null} scope @param {string | null} sort
 */
export function fromAddress(scope, sort) {
  if (scope) store.scope = scope;
  if (sort) store.sort = sort;
}

/** @param {string} sort */
export function sortBy(sort) {
  store.sort = sort;
  firstPage();
}

/** @param {string} filter */
export function filterBy(filter) {
  store.filter = filter;
  firstPage();
}

/** Chooses a label chip, or clears it when it is the one chosen. @param {string} label */
export function toggleLabel(label) {
  store.label = store.label === label ? null : label;
  firstPage();
}

/**
 * Moves a page on (1) or back (-1); false when there is no next page to move to.
 * @param {1 | -1} delta
 */
export function turnPage(delta) {
  if (delta > 0) {
    if (store.next === null) return false;
    const cursors = [...store.cursors];
    cursors[store.page + 1] = store.next;
    store.cursors = cursors;
  }
  store.page = Math.max(0, store.page + delta);
  return true;
}

/** A page of notes arrived; a later page comes without counts: the first page's still describe the scope. */
export function notesLoaded(/** @type {NotesPage} */ page) {
  store.notes = page.notes;
  store.next = page.next;
  store.partial = page.partial;
  if (page.counts) {
    store.total = page.counts.total;
    store.matching = page.counts.matching;
    store.labels = page.counts.labels;
  }
}

/** The scopes' answer arrived. @param {string} global @param {readonly Lockout[]} lockouts */
export function scopesLoaded(global, lockouts) {
  store.global = global;
  store.lockouts = lockouts;
}

/** The selected scope's lockout of keyed calls, if it has one. */
export const currentLockout = () => store.lockouts.find((l) => l.scope === store.scope);

/** A note is gone (deleted or combined away). @param {number} id */
export function forget(id) {
  gone.add(id);
}

/** Whether notes changed elsewhere while an edit form was open. @param {boolean} changed */
export function setChangedWhileEditing(changed) {
  store.changedWhileEditing = changed;
}

/** Entities of one type (any when empty), from the first. @param {string} type */
export function browseType(type) {
  store.entities = { ...store.entities, type, offset: 0 };
}

/** The previous (-1) or next (1) page of entities. @param {1 | -1} delta */
export function turnEntityPage(delta) {
  const { offset, limit } = store.entities;
  store.entities = { ...store.entities, offset: delta > 0 ? offset + limit : Math.max(0, offset - limit) };
}
