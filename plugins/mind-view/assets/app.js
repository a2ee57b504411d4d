// The Mind view. Every piece of memory text is inserted with textContent, never as HTML.
'use strict';

// The console prints the address with the token in the fragment (#token=…), which browsers never send to a
// server. The page moves it into sessionStorage (this tab only), removes it from the address bar, and sends
// it itself as a header: no cookie, so no other page or local server ever receives it.
function takeToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('mira_token', fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('mira_token') || '';
}
const token = takeToken();
const $ = (id) => document.getElementById(id);
/**
 * What is on screen: one page of the scope's notes, as the server sorted, filtered and counted them, and the
 * cursor each page starts after (`cursors[page]`; the first page starts at the top).
 */
const state = {
  notes: [],
  total: 0,
  matching: 0,
  next: null,
  labels: [],
  cursors: [null],
  filter: '',
  sort: 'newest',
  label: null,
  scope: 'default',
  page: 0,
  global: 'global',
};
/** Cards on one page: the server sends one page at a time, however many notes the scope holds. */
const PAGE_SIZE = 100;

/** An API error as the page says it: the code, the message, and what to do (the catalogue's advice). */
function failure(error) {
  return `${error.code}: ${error.message}${error.fix ? ` — what to do: ${error.fix}` : ''}`;
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(options.headers || {}) },
  });
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(failure(body.error)), { code: body.error.code });
  return body;
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') node.textContent = v;
    else if (k === 'className') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const UNLABELED = '#595959';
/**
 * A label's colour is a function of the label alone — a hue from a hash of its text — so it is the same
 * in every scope and does not change as counts change. At 65 % saturation and 26 % lightness every hue
 * keeps white text at 5.4:1 or more (WCAG AA asks 4.5:1).
 */
function colorOf(label) {
  if (label === 'unlabeled') return UNLABELED;
  let h = 2166136261;
  for (const ch of label) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return `hsl(${h % 360} 65% 26%)`;
}

function labelBadge(label) {
  const badge = el('span', { className: 'label', text: label });
  badge.style.background = colorOf(label);
  return badge;
}

/** The longest status line shown (an error quoting a long note stays readable). */
const MAX_STATUS = 300;

function status(text) {
  const chars = [...String(text)];
  $('status').textContent = chars.length > MAX_STATUS ? `${chars.slice(0, MAX_STATUS - 1).join('')}…` : text;
}

/** The scope and sort the address names (`?scope=lab&sort=oldest`), so reload and back keep them. */
function fromAddress(session) {
  const params = new URLSearchParams(location.search);
  state.scope = params.get('scope') || session || state.scope;
  const sort = params.get('sort');
  if (sort && [...$('sort').options].some((o) => o.value === sort)) state.sort = sort;
  $('sort').value = state.sort;
}

/** Puts the chosen scope and sort in the address, as a history entry. */
function toAddress() {
  const params = new URLSearchParams({ scope: state.scope, sort: state.sort });
  if (location.search !== `?${params}`) history.pushState(null, '', `${location.pathname}?${params}`);
}

async function loadScopes(first = false) {
  const { counts, global, lockouts, session } = await api('/api/scopes');
  if (first) {
    fromAddress(session);
    // The first entry names them too, so going back to it restores them.
    history.replaceState(
      null,
      '',
      `${location.pathname}?${new URLSearchParams({ scope: state.scope, sort: state.sort })}`,
    );
  }
  state.global = global;
  state.lockouts = lockouts;
  renderLockout();
  const select = $('scope');
  select.replaceChildren(
    ...counts.map((c) =>
      el('option', {
        value: c.scope,
        text: `${c.scope} (${c.notes})${c.scope === global ? ' · shared by every scope' : ''}`,
      }),
    ),
  );
  select.value = state.scope;
}

/** The selected scope's lockout of keyed calls (too many wrong keys), with the operator's way out. */
function renderLockout() {
  const box = $('lockout');
  const lock = (state.lockouts ?? []).find((l) => l.scope === state.scope);
  box.hidden = !lock;
  if (!lock) return box.replaceChildren();
  const unlock = el('button', {
    type: 'button',
    text: `Unlock ${lock.scope}`,
    onclick: async () => {
      try {
        const { forgotten } = await api(`/api/scopes/${encodeURIComponent(lock.scope)}/unlock`, { method: 'POST' });
        await loadScopes();
        status(`scope ${lock.scope} unlocked (${forgotten} wrong keys forgotten)`);
      } catch (e) {
        status(e.message);
      }
    },
  });
  box.replaceChildren(
    el('span', {
      text: `Keyed calls in scope ${lock.scope} are refused until ${lock.until} after ${lock.misses} wrong keys. `,
    }),
    unlock,
  );
}

async function createScope(event) {
  event.preventDefault();
  const name = $('new-scope').value.trim();
  try {
    await api('/api/scopes', { method: 'POST', body: JSON.stringify({ name }) });
    state.scope = name;
    state.label = null;
    firstPage();
    toAddress();
    $('new-scope').value = '';
    await loadScopes();
    await loadNotes();
    status(`scope ${name} created`);
  } catch (e) {
    status(e.message);
  }
}

/** Back to the first page (the sort, label, filter or scope changed). */
function firstPage() {
  state.page = 0;
  state.cursors = [null];
}

/** Each load is numbered: an answer that arrives after a newer request was made is dropped. */
let loads = 0;

/**
 * Loads and draws the current page of the scope's notes. A live reload (`live`) that finds an edit form opened
 * while it fetched leaves the cards alone: drawing them would throw the form away; the reload waits for the
 * form to close.
 */
async function loadNotes(options = {}) {
  const load = ++loads;
  // Set while a page is on its way (tests and screen readers can wait for it to settle).
  document.body.dataset.loading = 'notes';
  const params = new URLSearchParams({ scope: state.scope, sort: state.sort, limit: String(PAGE_SIZE) });
  if (state.label) params.set('label', state.label);
  if (state.filter.trim()) params.set('filter', state.filter);
  const after = state.cursors[state.page];
  if (after) params.set('after', after);
  // A live reload of a later page asks for the counts too: notes may have come or gone.
  if (after && options.live) params.set('counts', '1');
  const started = performance.now();
  let page;
  try {
    page = await api(`/api/notes?${params}`);
  } finally {
    if (load === loads) delete document.body.dataset.loading;
  }
  if (load !== loads) return;
  if (options.live && document.querySelector('.edit-form')) {
    notesChangedWhileEditing = true;
    return;
  }
  // A live reload can find the page emptied (its notes deleted elsewhere): back to the first page.
  if (page.notes.length === 0 && state.page > 0) {
    firstPage();
    return loadNotes(options);
  }
  // A later page comes without counts: the first page's still describe the scope.
  Object.assign(state, { notes: page.notes, next: page.next }, page.counts ?? {});
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
          state.label = state.label === label ? null : label;
          firstPage();
          try {
            await loadNotes();
          } catch (e) {
            status(e.message);
          }
          // The chips are drawn anew: focus stays on the one the person toggled.
          [...$('chips').querySelectorAll('.chip')].find((c) => c.dataset.label === label)?.focus();
        },
      });
      // Through the CSSOM: the page's content security policy allows no inline style attributes.
      chip.style.setProperty('--chip', colorOf(label));
      return chip;
    }),
  );
}

/**
 * Every delete on the page asks first, with the same question: the card's ✕ and the duplicates walk's
 * "Delete N…" alike. Nothing is removed unless the person says yes.
 */
function confirmDelete(id) {
  return window.confirm(`Delete N${id}? This cannot be undone.`);
}

function card(note) {
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
    const close = () => {
      form.replaceWith(text);
      save.remove();
      cancel.remove();
      // Back where the person started the edit.
      edit.focus();
      if (notesChangedWhileEditing) {
        notesChangedWhileEditing = false;
        loadScopes()
          .then(loadNotes)
          .catch((e) => status(e.message));
      }
    };
    cancel.addEventListener('click', close);
    // Esc cancels from any field of the editor, its buttons included.
    for (const part of [form, save, cancel]) part.addEventListener('keydown', (e) => e.key === 'Escape' && close());
    save.addEventListener('click', async () => {
      try {
        const result = await api(`/api/notes/${note.id}?scope=${encodeURIComponent(state.scope)}`, {
          method: 'PATCH',
          body: JSON.stringify({ content: area.value, labels: labels.value }),
        });
        status(`N${note.id} saved${result.cut ? `; trimmed to 512 characters, cut: "${result.cut}"` : ''}`);
        notesChangedWhileEditing = false; // the reload below takes them in
        await loadNotes();
        document.querySelector(`.card[data-id="${note.id}"] .edit`)?.focus();
      } catch (e) {
        status(e.message);
      }
    });
    text.replaceWith(form);
    box.append(save, cancel);
    area.focus();
  });
  remove.addEventListener('click', async () => {
    if (!confirmDelete(note.id)) return;
    try {
      await api(`/api/notes/${note.id}?scope=${encodeURIComponent(state.scope)}`, { method: 'DELETE' });
      status(`N${note.id} deleted`);
      forget(note.id);
      await loadNotes();
    } catch (e) {
      status(e.message);
    }
  });
  box.append(el('div', { className: 'actions' }, edit, remove));
  return box;
}

function render() {
  const started = performance.now();
  renderChips();
  const pages = Math.max(1, Math.ceil(state.matching / PAGE_SIZE));
  const from = state.page * PAGE_SIZE;
  $('cards').replaceChildren(...state.notes.map(card));
  // The count always describes what is shown.
  $('count').textContent =
    `${state.matching} of ${state.total} notes` +
    (pages > 1 ? ` · showing ${from + 1}–${from + state.notes.length}` : '');
  $('pager').hidden = pages <= 1;
  $('page-of').textContent = `page ${state.page + 1} of ${pages}`;
  $('prev-page').disabled = state.page === 0;
  $('next-page').disabled = state.next === null;
  document.body.dataset.renderMs = String(Math.round(performance.now() - started));
}

async function goToPage(delta) {
  if (delta > 0) {
    if (state.next === null) return;
    state.cursors[state.page + 1] = state.next;
  }
  state.page = Math.max(0, state.page + delta);
  try {
    await loadNotes();
  } catch (e) {
    status(e.message);
  }
  $('cards').scrollIntoView({ block: 'start' });
}

async function storeSearch(event) {
  event.preventDefault();
  const q = $('search').value.trim();
  const panel = $('search-results');
  if (!q) {
    panel.hidden = true;
    return;
  }
  try {
    const result = await api(`/api/notes/search?scope=${encodeURIComponent(state.scope)}&q=${encodeURIComponent(q)}`);
    panel.hidden = false;
    panel.replaceChildren(
      el('h2', { text: `Search "${q}"` }),
      el('p', {
        className: 'search-mode',
        text: `${result.hits.length} found · ${result.mode === 'hybrid' ? 'full text and meaning' : 'full text'}${result.why ? ` (${result.why})` : ''}`,
      }),
      el('div', { className: 'cards' }, ...result.hits.map(card)),
      el('button', {
        type: 'button',
        className: 'close-search',
        text: 'Close search',
        onclick: () => (panel.hidden = true),
      }),
    );
  } catch (e) {
    status(e.message);
  }
}

/** Notes deleted or combined away on this page: no panel shows them again (a walk's list is from before). */
const gone = new Set();

/** A note is gone: out of the search results, and out of the duplicates walk. */
function forget(id) {
  gone.add(id);
  for (const shown of document.querySelectorAll(`#search-results .card[data-id="${id}"]`)) shown.remove();
}

/**
 * The duplicates walk: one pair at a time, from a list fetched afresh after every combine or delete (so a
 * kept note shows its new labels and a removed one never comes back); Skip and Skip all pass pairs over
 * for this walk. Combine asks which note's text to keep, then confirms.
 */
async function findDuplicates() {
  const panel = $('duplicates');
  const scope = state.scope;
  panel.hidden = false;
  const close = el('button', {
    type: 'button',
    className: 'close-dup',
    text: 'Close',
    onclick: () => (panel.hidden = true),
  });
  const skipped = new Set();
  const keyOf = (pair) => `${pair.a.id}:${pair.b.id}`;
  let found = 0;
  // The label the walk is narrowed to (a scope too large to compare at once is compared a label at a time).
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
    const query = new URLSearchParams({ scope, ...(label === null ? {} : { label }) });
    const fail = (e) =>
      panel.replaceChildren(el('p', { className: 'dup-error', role: 'alert', text: e.message }), close);
    // The progress bar ends with the scan, whatever it answered: pairs, an offer of labels, or the error.
    let pairs;
    try {
      // Past the notes one scan compares, the page asks for a label first instead of a scan that would be refused.
      const counts = await api(`/api/notes/labels?scope=${encodeURIComponent(scope)}`);
      if (stale()) return;
      if (tooMany(counts)) return offerLabels(counts);
      ({ pairs } = await api(`/api/notes/duplicates?${query}`));
    } catch (e) {
      if (stale()) return;
      // Refused for size after all (notes came meanwhile): the labels again, with the counts of now.
      const counts = await api(`/api/notes/labels?scope=${encodeURIComponent(scope)}`).catch(() => null);
      if (stale()) return;
      if (counts && tooMany(counts)) offerLabels(counts);
      else fail(e);
      return;
    }
    if (stale()) return;
    found = Math.max(found, pairs.length);
    show(pairs.filter((pair) => !skipped.has(keyOf(pair)) && !gone.has(pair.a.id) && !gone.has(pair.b.id)));
  };
  /** Whether the notes this walk compares (the scope's, or its label's) are more than one scan compares. */
  const tooMany = (counts) =>
    (label === null ? counts.total : (counts.labels.find((l) => l.label === label)?.count ?? 0)) > counts.max_compared;
  /** Too many notes to compare at once: says so plainly and offers the scope's labels, each compared alone. */
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
                scan().catch((e) => status(e.message));
              },
            }),
          ]
        : []),
      close,
    );
    (firstFit ? picker : close).focus();
  };
  const act = (fn) => async () => {
    try {
      await fn();
      await loadNotes();
    } catch (e) {
      status(e.message);
    }
    await scan().catch((e) => status(e.message));
  };
  const show = (left) => {
    if (left.length === 0) {
      panel.replaceChildren(
        el('p', {
          text: found ? 'No more pairs.' : `No near-identical notes${label === null ? '' : ` with label ${label}`}.`,
        }),
        close,
      );
      return;
    }
    const pair = left[0];
    const { a, b, similarity } = pair;
    const whole = (note, className) => {
      const shown = card({ ...note, read_only: true });
      shown.classList.replace('card', 'dup-note');
      shown.classList.add(className);
      shown.querySelector('.overlay')?.remove();
      return shown;
    };
    const choice = (note, checked) =>
      el(
        'label',
        { className: 'dup-choice' },
        el('input', { type: 'radio', name: 'dup-keep', value: String(note.id), ...(checked ? { checked: '' } : {}) }),
        document.createTextNode(` Keep the text of N${note.id}`),
      );
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
          const keep = Number(confirmBox.querySelector('input[name="dup-keep"]:checked').value);
          const drop = keep === a.id ? b.id : a.id;
          await api(`/api/notes/combine?scope=${encodeURIComponent(scope)}`, {
            method: 'POST',
            body: JSON.stringify({ keep, drop }),
          });
          forget(drop);
        }),
      }),
      el('button', {
        type: 'button',
        className: 'cancel-combine',
        text: 'Cancel',
        onclick: () => {
          confirmBox.hidden = true;
          panel.querySelector('.combine').focus();
        },
      }),
    );
    const deleteB = act(async () => {
      await api(`/api/notes/${b.id}?scope=${encodeURIComponent(scope)}`, { method: 'DELETE' });
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
          confirmBox.querySelector('input[name="dup-keep"]:checked').focus();
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

async function exportScope() {
  const data = await api(`/api/notes/export?scope=${encodeURIComponent(state.scope)}`);
  const link = el('a', {
    href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })),
    download: `mira-notes-${state.scope}.json`,
  });
  document.body.append(link);
  link.click();
  link.remove();
  status(`exported ${data.notes.length} notes`);
}

/** The largest export the page imports: the console's `notes import` limit. */
const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/**
 * Sends a file as the request body, read from disk as it goes (not parsed or copied on the page), reporting
 * how much of it is sent; resolves to the JSON answer.
 */
function upload(path, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.upload.addEventListener('progress', (e) => e.lengthComputable && onProgress(e.loaded, e.total));
    xhr.upload.addEventListener('load', () => onProgress(file.size, file.size));
    xhr.addEventListener('load', () => {
      let body;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        reject(new Error(`the server answered ${xhr.status} without a body; nothing was imported`));
        return;
      }
      if (xhr.status >= 400) reject(new Error(failure(body.error)));
      else resolve(body);
    });
    xhr.addEventListener('error', () =>
      reject(new Error('the upload failed (the runtime stopped?); nothing was imported')),
    );
    xhr.send(file);
  });
}

async function importFile(file) {
  const bar = $('import-progress');
  try {
    if (file.size > MAX_IMPORT_BYTES) {
      status(
        `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB, more than the 50 MB an import reads (notes import on the console too); split the export by scope or in parts. Nothing was imported`,
      );
      return;
    }
    const mb = (file.size / 1024 / 1024).toFixed(1);
    bar.hidden = false;
    bar.value = 0;
    status(`importing ${file.name} (${mb} MB): sending…`);
    const result = await upload(`/api/notes/import?scope=${encodeURIComponent(state.scope)}`, file, (sent, total) => {
      bar.value = total ? Math.round((sent / total) * 100) : 100;
      status(
        sent < total
          ? `importing ${file.name} (${mb} MB): ${bar.value} % sent`
          : `importing ${file.name} (${mb} MB): sent; writing the notes…`,
      );
    });
    // Done: the bar goes before the result is said, not after the lists reload.
    bar.hidden = true;
    status(`imported ${result.added} notes, ${result.skipped} already present`);
    await loadScopes();
    await loadNotes();
  } catch (e) {
    status(e.message);
  } finally {
    bar.hidden = true;
    // The same file can be chosen again (after fixing it, say).
    $('import').value = '';
  }
}

/** How many times the entity status line was written: a list that loaded meanwhile does not overwrite it. */
let entityStatusWrites = 0;

function entityStatus(text) {
  entityStatusWrites += 1;
  $('entity-status').textContent = text;
}

async function entityBlock(entity) {
  const { memories } = await api(`/api/entities/${entity.id}/memories`);
  const block = el(
    'div',
    { className: 'entity' },
    el('h2', { text: `${entity.id} ${entity.entity_type} ${entity.canonical_name}` }),
  );
  if (entity.aliases.length) block.append(el('p', { text: `aliases: ${entity.aliases.join(', ')}` }));
  if (!memories.length) block.append(el('p', { className: 'meta', text: 'no active memories' }));
  for (const m of memories) {
    const details = [
      m.kind,
      m.predicate ? `${m.predicate}=${m.value ?? ''}` : '',
      `source ${m.source_kind}${m.source_label ? ` (${m.source_label})` : ''}`,
      m.confidence === null ? '' : `confidence ${m.confidence}`,
      m.created_at,
      ...m.payloads.map((p) => `${p.media_type} ${p.byte_size} bytes`),
    ]
      .filter(Boolean)
      .join(' · ');
    block.append(
      el(
        'div',
        { className: 'memory', 'data-id': m.id },
        el('strong', { text: `${m.id} ` }),
        el('span', { className: 'summary', text: m.summary }),
        m.image ? snapshotThumbnail(m) : null,
        el('div', { className: 'meta', text: details }),
        el('div', {
          className: 'links',
          text: `links: ${m.links.map((l) => `${l.entity} ${l.name} (${l.role})`).join(', ')}`,
        }),
      ),
    );
  }
  return block;
}

/**
 * A snapshot's image as an object URL: fetched with the token (an <img> cannot send it), so the image never
 * needs a URL another page could load, and nothing leaves this machine.
 */
async function snapshotUrl(id) {
  const response = await fetch(`/api/memories/${id}/image`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(failure((await response.json()).error));
  return URL.createObjectURL(await response.blob());
}

/** A thumbnail of a snapshot memory; a click opens it full size with when and where it was taken. */
function snapshotThumbnail(m) {
  const image = el('img', { alt: `snapshot ${m.id}: ${m.summary}` });
  const button = el(
    'button',
    { type: 'button', className: 'thumb-button', 'aria-label': `Open ${m.id} full size` },
    image,
  );
  snapshotUrl(m.id).then(
    (url) => (image.src = url),
    (e) =>
      button.replaceWith(el('div', { className: 'meta', text: `${m.id}: the image cannot be shown: ${e.message}` })),
  );
  button.addEventListener('click', () => {
    $('snapshot-title').textContent = `${m.id}: ${m.summary}`;
    $('snapshot-full').src = image.src;
    $('snapshot-full').alt = `snapshot ${m.id}, full size`;
    $('snapshot-about').textContent = `taken by ${m.source_label ?? m.source_kind}; recorded ${m.created_at}`;
    $('snapshot-dialog').showModal();
    $('snapshot-close').focus();
  });
  return button;
}

async function findEntities() {
  const name = $('entity-name').value;
  try {
    const { entities } = await api(`/api/entities?name=${encodeURIComponent(name)}`);
    const blocks = [];
    for (const entity of entities) blocks.push(await entityBlock(entity));
    $('entity-results').replaceChildren(...blocks);
    entityStatus(
      entities.length
        ? `${entities.length} exact match${entities.length === 1 ? '' : 'es'}`
        : `no entity is named "${name}" (exact name or alias)`,
    );
  } catch (e) {
    entityStatus(e.message);
  }
}

const browse = { offset: 0, limit: 25, type: '' };

/**
 * A page of entities (optionally of one type); a click on one shows it with its memories. A live refresh
 * (`live`: the memory changed) redraws the list but leaves the status line alone: it may be saying what
 * the operator's own last action did ("ENT2 place added …"), which that very change set off; nor does a
 * page that arrives after something else was said there.
 */
async function browseEntities({ live = false } = {}) {
  const writes = entityStatusWrites;
  try {
    const query = `offset=${browse.offset}&limit=${browse.limit}${browse.type ? `&type=${encodeURIComponent(browse.type)}` : ''}`;
    const { entities, total } = await api(`/api/entities?${query}`);
    const rows = entities.map((entity) =>
      el(
        'li',
        {},
        el('button', {
          type: 'button',
          className: 'entity-row',
          'data-id': entity.id,
          text: `${entity.id} · ${entity.entity_type} · ${entity.canonical_name}${entity.aliases.length ? ` (${entity.aliases.join(', ')})` : ''}`,
          onclick: async () => {
            try {
              $('entity-results').replaceChildren(await entityBlock(entity));
            } catch (e) {
              entityStatus(e.message);
            }
          },
        }),
      ),
    );
    $('entity-list').replaceChildren(...rows);
    const last = Math.min(browse.offset + entities.length, total);
    if (!live && entityStatusWrites === writes)
      entityStatus(
        total
          ? `entities ${browse.offset + 1}–${last} of ${total}${browse.type ? ` of type ${browse.type}` : ''}`
          : `no entities${browse.type ? ` of type ${browse.type}` : ''}`,
      );
    $('entity-prev').disabled = browse.offset === 0;
    $('entity-next').disabled = last >= total;
  } catch (e) {
    entityStatus(e.message);
  }
}

function formHandler(id, submit) {
  $(id).addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.target).entries());
    try {
      entityStatus(await submit(data));
      event.target.reset();
    } catch (e) {
      entityStatus(e.message);
    }
  });
}

/**
 * Live updates: the server's event stream says when notes or memories changed (the model, the console,
 * another process); the page reloads what is on screen. Read with fetch, since EventSource cannot send
 * the Authorization header; reconnects after a pause if the stream ends.
 */
async function listen() {
  for (;;) {
    try {
      const response = await fetch('/api/events', { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
      document.body.dataset.live = 'on';
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (frame.includes('event: change') && data) await onChange(JSON.parse(data.slice(6)));
        }
      }
    } catch {
      // the runtime stopped or restarted: try again shortly
    }
    document.body.dataset.live = 'off';
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** Notes changed elsewhere while a card was being edited: reloaded once the edit form closes. */
let notesChangedWhileEditing = false;

async function onChange(changed) {
  try {
    if (changed.notes && document.querySelector('.edit-form')) {
      // Re-rendering the cards now would throw away what the operator is typing.
      notesChangedWhileEditing = true;
    } else if (changed.notes) {
      await loadScopes();
      await loadNotes({ live: true });
    }
    if (changed.memory && !$('entities').hidden && !$('entity-list').hidden) await browseEntities({ live: true });
    if (changed.memory) await loadPending();
  } catch (e) {
    status(e.message);
  }
}

function showTab(name) {
  for (const tab of ['memories', 'entities', 'pending']) {
    $(tab).hidden = name !== tab;
    $(`tab-${tab}`).classList.toggle('active', name === tab);
  }
  if (name === 'pending') loadPending().catch((e) => pendingStatus(e.message));
}

function pendingStatus(text) {
  $('pending-status').textContent = text;
}

/** What a proposal asks for, in one line. */
function proposalTitle(p) {
  if (p.kind === 'entity') return `${p.id}: new ${p.entity_type} "${p.name}"`;
  const old = p.replaces;
  const was = old ? ` ${old.predicate} "${old.value}"` : '';
  return `${p.id}: ${p.memory_id}${was} → "${p.value}"`;
}

function proposalItem(p) {
  const reason = el('input', { type: 'text', maxlength: '1000', placeholder: 'reason (optional)' });
  const label = el('label', { text: 'Reason ' }, reason);
  const decide = async (action) => {
    try {
      const body = action === 'reject' ? { reason: reason.value.trim() || null } : {};
      const done = await api(`/api/proposals/${encodeURIComponent(p.id)}/${action}`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      const made = done.entity ? ` (${done.entity.id} created)` : done.memory ? ` (${done.memory.id} created)` : '';
      await loadPending();
      pendingStatus(`${done.proposal.id} ${done.proposal.status}${made}`);
    } catch (e) {
      pendingStatus(e.message);
    }
  };
  const expired = p.status === 'expired';
  const stale = !expired && p.stale;
  return el(
    'li',
    { className: `proposal${expired || stale ? ' expired' : ''}`, 'data-id': p.id },
    el('h2', { text: proposalTitle(p) }),
    el('p', { className: 'said' }, el('span', { text: 'Said: ' }), el('q', { text: p.utterance })),
    el('p', { text: `Evidence: ${p.evidence}` }),
    el('p', {
      className: 'meta',
      text: expired
        ? `Expired ${p.expires_at}; it can only be rejected`
        : stale
          ? `Stale: ${p.stale}; it can only be rejected`
          : `Expires ${p.expires_at}`,
    }),
    el(
      'div',
      { className: 'actions' },
      expired || stale
        ? null
        : el('button', { type: 'button', text: `Accept ${p.id}`, onclick: () => decide('accept') }),
      label,
      el('button', { type: 'button', text: `Reject ${p.id}`, onclick: () => decide('reject') }),
    ),
  );
}

async function loadPending() {
  const { proposals } = await api('/api/proposals');
  const waiting = proposals.filter((p) => p.status === 'pending').length;
  $('pending-count').textContent = waiting ? `(${waiting})` : '';
  // A reason being typed survives the reload (a live update can arrive at any keystroke), and so does focus.
  const typed = new Map();
  let focused = null;
  for (const item of document.querySelectorAll('#pending-list .proposal')) {
    const input = item.querySelector('input');
    if (input.value !== '') typed.set(item.dataset.id, input.value);
    if (document.activeElement === input) focused = item.dataset.id;
  }
  $('pending-list').replaceChildren(...proposals.map(proposalItem));
  for (const item of document.querySelectorAll('#pending-list .proposal')) {
    const input = item.querySelector('input');
    if (typed.has(item.dataset.id)) input.value = typed.get(item.dataset.id);
    if (focused === item.dataset.id) input.focus();
  }
  if (proposals.length === 0) $('pending-list').append(el('li', { text: 'No proposals await a decision.' }));
}

document.addEventListener('DOMContentLoaded', async () => {
  $('tab-memories').addEventListener('click', () => showTab('memories'));
  $('tab-entities').addEventListener('click', () => showTab('entities'));
  $('tab-pending').addEventListener('click', () => showTab('pending'));
  $('new-scope-form').addEventListener('submit', createScope);
  $('store-search').addEventListener('submit', storeSearch);
  $('prev-page').addEventListener('click', () => goToPage(-1));
  $('next-page').addEventListener('click', () => goToPage(1));
  $('entity-browse').addEventListener('submit', (e) => {
    e.preventDefault();
    browse.type = $('entity-type').value.trim();
    browse.offset = 0;
    browseEntities();
  });
  $('entity-prev').addEventListener('click', () => {
    browse.offset = Math.max(0, browse.offset - browse.limit);
    browseEntities();
  });
  $('entity-next').addEventListener('click', () => {
    browse.offset += browse.limit;
    browseEntities();
  });
  // The filter asks the server once typing pauses (every word, in any order, folded as the store folds).
  let filtering;
  $('filter').addEventListener('input', (e) => {
    state.filter = e.target.value;
    firstPage();
    status('');
    clearTimeout(filtering);
    document.body.dataset.loading = 'notes';
    filtering = setTimeout(() => loadNotes().catch((error) => status(error.message)), 120);
  });
  $('sort').addEventListener('change', async (e) => {
    state.sort = e.target.value;
    firstPage();
    toAddress();
    try {
      await loadNotes();
    } catch (error) {
      status(error.message);
    }
  });
  $('scope').addEventListener('change', async (e) => {
    state.scope = e.target.value;
    // A walk of another scope's pairs ends with it.
    $('duplicates').hidden = true;
    toAddress();
    renderLockout();
    state.label = null;
    firstPage();
    $('search-results').hidden = true;
    status('');
    await loadNotes();
  });
  $('find-duplicates').addEventListener('click', () => findDuplicates().catch((e) => status(e.message)));
  $('export').addEventListener('click', () => exportScope().catch((e) => status(e.message)));
  $('import').addEventListener('change', (e) => e.target.files[0] && importFile(e.target.files[0]));
  $('entity-find').addEventListener('click', findEntities);
  $('entity-name').addEventListener('keydown', (e) => e.key === 'Enter' && findEntities());
  formHandler(
    'add-entity',
    async (d) => `${(await api('/api/entities', { method: 'POST', body: JSON.stringify(d) })).entity.id} added`,
  );
  formHandler('add-place', async (d) => {
    const body = { name: d.name, pose: d.pose, frame: d.frame || null };
    const added = await api('/api/places', { method: 'POST', body: JSON.stringify(body) });
    return `${added.entity.id} place added at ${added.pose} (${added.memory.id})`;
  });
  formHandler(
    'add-alias',
    async (d) =>
      `${(await api(`/api/entities/${encodeURIComponent(d.entity)}/aliases`, { method: 'POST', body: JSON.stringify({ alias: d.alias }) })).entity.id} alias added`,
  );
  formHandler('add-memory', async (d) => {
    const links = d.link ? [{ entity: d.link.split(':')[0], role: d.link.split(':')[1] || 'subject' }] : [];
    return `${(await api('/api/memories', { method: 'POST', body: JSON.stringify({ kind: d.kind, summary: d.summary, links }) })).memory.id} added`;
  });
  if (!token) {
    status('No access token: open the address the console printed (it ends with #token=…).');
    return;
  }
  // Back and forward move between the scopes and sorts chosen, as the address records them.
  window.addEventListener('popstate', async () => {
    fromAddress(undefined);
    firstPage();
    $('scope').value = state.scope;
    renderLockout();
    try {
      await loadNotes();
    } catch (e) {
      status(e.message);
    }
  });
  try {
    await loadScopes(true);
    await loadNotes();
    await browseEntities();
    await loadPending();
  } catch (e) {
    status(e.message);
  }
  void listen();
});
