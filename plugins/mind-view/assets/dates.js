// The Memories tab's date filter: notes added or last changed today, in the last 7 or 30 days, or between two
// days the person picks (days in the browser's time zone; the server compares times in UTC).
import { $, messageOf, status } from './dom.js';
import * as store from './state.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The times a choice of the filter stands for, as the server takes them (ISO, null for no bound).
 * @param {string} choice `''` (any time), `today`, a number of days, or `range`
 * @param {string} from `yyyy-mm-dd` or empty (the range's first day) @param {string} to likewise (its last day)
 * @param {Date} now
 * @returns {{ since: string | null, until: string | null }}
 */
export function timesOf(choice, from, to, now) {
  if (choice === '') return { since: null, until: null };
  if (choice === 'today') {
    const midnight = new Date(now);
    midnight.setHours(0, 0, 0, 0);
    return { since: midnight.toISOString(), until: null };
  }
  if (choice !== 'range')
    return { since: new Date(now.getTime() - Number(choice) * DAY_MS).toISOString(), until: null };
  // A picked day is the browser's local day: from its midnight to the next day's.
  const dayStart = (/** @type {string} */ day) => new Date(`${day}T00:00:00`);
  const nextDay = (/** @type {string} */ day) => {
    const start = dayStart(day);
    start.setDate(start.getDate() + 1);
    return start;
  };
  return {
    since: from ? dayStart(from).toISOString() : null,
    until: to ? nextDay(to).toISOString() : null,
  };
}

/**
 * Wires the filter's controls: a choice (or a day of the range) reloads the list from its first page.
 * @param {() => Promise<void>} load
 */
export function wireDates(load) {
  const choice = $('changed', HTMLSelectElement);
  const from = $('changed-from', HTMLInputElement);
  const to = $('changed-to', HTMLInputElement);
  const apply = async () => {
    $('changed-range').hidden = choice.value !== 'range';
    const { since, until } = timesOf(choice.value, from.value, to.value, new Date());
    store.changedWithin(since, until);
    try {
      await load();
    } catch (e) {
      status(messageOf(e));
    }
  };
  for (const control of [choice, from, to]) control.addEventListener('change', apply);
}
