// The Entities tab: find by exact name, browse by type, an entity with its memories (snapshots as
// thumbnails), and the forms that add entities, places, aliases and memories.
/** @import { EntityJson, MemoryJson } from '../src/wire.js' */
import * as api from './api.js';
import { $, el, messageOf } from './dom.js';
import { state } from './state.js';

/**
 * How many times something other than a page of the list was said on the entity status line: a page that
 * loaded meanwhile does not overwrite it.
 */
let entityStatusWrites = 0;
/** Whether the status line says which page of the list is shown (a live refresh then keeps it in step). */
let statusIsPage = false;
/** The latest page of the list asked for, and the latest drawn: a page asked earlier never replaces a later one. */
let pagesAsked = 0;
let pageDrawn = 0;

/** Says something on the Entities tab's status line. @param {string} text */
export function entityStatus(text) {
  entityStatusWrites += 1;
  statusIsPage = false;
  $('entity-status').textContent = text;
}

/** An entity with its aliases and active memories. @param {EntityJson} entity */
async function entityBlock(entity) {
  const { memories } = await api.getEntityMemories(entity.id);
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
 * A thumbnail of a snapshot memory; a click opens it full size with when and where it was taken.
 * @param {MemoryJson} m
 */
function snapshotThumbnail(m) {
  const image = el('img', { alt: `snapshot ${m.id}: ${m.summary}` });
  const button = el(
    'button',
    { type: 'button', className: 'thumb-button', 'aria-label': `Open ${m.id} full size` },
    image,
  );
  api.snapshotUrl(m.id).then(
    (url) => (image.src = url),
    (e) =>
      button.replaceWith(el('div', { className: 'meta', text: `${m.id}: the image cannot be shown: ${messageOf(e)}` })),
  );
  button.addEventListener('click', () => {
    $('snapshot-title').textContent = `${m.id}: ${m.summary}`;
    const full = $('snapshot-full', HTMLImageElement);
    full.src = image.src;
    full.alt = `snapshot ${m.id}, full size`;
    $('snapshot-about').textContent = `taken by ${m.source_label ?? m.source_kind}; recorded ${m.created_at}`;
    $('snapshot-dialog', HTMLDialogElement).showModal();
    $('snapshot-close').focus();
  });
  return button;
}

/** Shows the entities of the exact name or alias typed. */
export async function findEntities() {
  const name = $('entity-name', HTMLInputElement).value;
  try {
    const { entities } = await api.findEntities(name);
    const blocks = [];
    for (const entity of entities) blocks.push(await entityBlock(entity));
    $('entity-results').replaceChildren(...blocks);
    entityStatus(
      entities.length
        ? `${entities.length} exact match${entities.length === 1 ? '' : 'es'}`
        : `no entity is named "${name}" (exact name or alias); the list below has every entity`,
    );
  } catch (e) {
    entityStatus(messageOf(e));
  }
}

/**
 * A page of entities (optionally of one type); a click on one shows it with its memories. A live refresh
 * (`live`: the memory changed) redraws the list but leaves the status line alone unless it says which page
 * is shown: it may be saying what the operator's own last action did ("ENT2 place added …"), which that
 * very change set off; nor does a page that arrives after something else was said there. Pages may arrive
 * out of order (the page's first load, a live refresh, a click): one asked earlier than the page drawn is
 * dropped, and one asked later is drawn with its status, whatever an earlier page said meanwhile.
 */
export async function browseEntities({ live = false } = {}) {
  const writes = entityStatusWrites;
  const mine = ++pagesAsked;
  const browse = state.entities;
  try {
    const { entities, total } = await api.getEntityPage(browse);
    if (mine < pageDrawn) return;
    pageDrawn = mine;
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
              entityStatus(messageOf(e));
            }
          },
        }),
      ),
    );
    $('entity-list').replaceChildren(...(rows.length > 0 ? rows : [emptyEntities(browse.type)]));
    const last = Math.min(browse.offset + entities.length, total);
    if ((!live || statusIsPage) && entityStatusWrites === writes) {
      statusIsPage = true;
      $('entity-status').textContent = total
        ? `entities ${browse.offset + 1}–${last} of ${total}${browse.type ? ` of type ${browse.type}` : ''}`
        : `no entities${browse.type ? ` of type ${browse.type}` : ''}`;
    }
    $('entity-prev', HTMLButtonElement).disabled = browse.offset === 0;
    $('entity-next', HTMLButtonElement).disabled = last >= total;
    // One page (or none): nothing to turn.
    $('entity-pager').hidden = browse.offset === 0 && last >= total;
  } catch (e) {
    entityStatus(messageOf(e));
  }
}

/**
 * What the list says when it is empty, and what to do: where entities come from, or how to see them all.
 * @param {string} type the type browsed, empty for any
 */
function emptyEntities(type) {
  return el('li', {
    className: 'empty-state',
    text: type
      ? `No entity has the type "${type}" (types are exact: person, place, …). Clear the type and Browse to list every entity.`
      : 'No entities yet. The people, places and things Mira remembers appear here: accept what it proposes under ' +
        'Pending, add one under "Add an entity, alias or memory" below, or on the console (memory entity add).',
  });
}

/**
 * Sends a form of the Entities tab with `submit` and says what it answered; a refusal keeps what was typed.
 * @param {string} id the form's ID
 * @param {(fields: Record<string, string>) => Promise<string>} submit
 */
function formHandler(id, submit) {
  const form = $(id, HTMLFormElement);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, String(value)]));
    try {
      entityStatus(await submit(fields));
      form.reset();
    } catch (e) {
      entityStatus(messageOf(e));
    }
  });
}

/** Wires the forms that add entities, places, aliases and memories. */
export function wireEntityForms() {
  formHandler(
    'add-entity',
    async (d) =>
      `${(await api.addEntity({ entity_type: d.entity_type, canonical_name: d.canonical_name })).entity.id} added`,
  );
  formHandler('add-place', async (d) => {
    const added = await api.addPlace({ name: d.name, pose: d.pose, frame: d.frame || null });
    return `${added.entity.id} place added at ${added.pose} (${added.memory.id})`;
  });
  formHandler('add-alias', async (d) => `${(await api.addAlias(d.entity, d.alias)).entity.id} alias added`);
  formHandler('add-memory', async (d) => {
    const links = d.link ? [{ entity: d.link.split(':')[0], role: d.link.split(':')[1] || 'subject' }] : [];
    return `${(await api.addMemory({ kind: d.kind, summary: d.summary, links })).memory.id} added`;
  });
}
