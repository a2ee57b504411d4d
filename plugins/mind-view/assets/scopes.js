// The Memories tab's scopes: the picker with its counts, the address that names the scope and sort, a scope's
// lockout of keyed calls, and a new scope. (The list of a scope's notes is notes.js.)
import * as api from './api.js';
import { $, el, messageOf, status } from './dom.js';
import * as store from './state.js';
import { state } from './state.js';

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

/**
 * Creates the scope the form names and shows it: `show` draws its (empty) list.
 * @param {SubmitEvent} event
 * @param {() => Promise<void>} show
 */
export async function createScope(event, show) {
  event.preventDefault();
  const input = $('new-scope', HTMLInputElement);
  const name = input.value.trim();
  try {
    await api.createScope(name);
    store.showScope(name);
    toAddress();
    input.value = '';
    await loadScopes();
    await show();
    status(`scope ${name} created`);
  } catch (e) {
    status(messageOf(e));
  }
}
