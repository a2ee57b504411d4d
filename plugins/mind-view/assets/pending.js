// The Pending tab: what the model proposed from the operator's words, to accept or reject.
/** @import { PendingProposal } from '../src/wire.js' */
import * as api from './api.js';
import { $, el, find, findAll, messageOf } from './dom.js';

/** Says something on the Pending tab's status line. @param {string} text */
export function pendingStatus(text) {
  $('pending-status').textContent = text;
}

/** What a proposal asks for, in one line. @param {PendingProposal} p */
function proposalTitle(p) {
  if (p.kind === 'entity') return `${p.id}: new ${p.entity_type} "${p.name}"`;
  const old = p.replaces;
  const was = old ? ` ${old.predicate} "${old.value}"` : '';
  return `${p.id}: ${p.memory_id}${was} → "${p.value}"`;
}

/**
 * A proposal with what was said, its evidence, and Accept (unless expired or stale) and Reject.
 * @param {PendingProposal} p
 */
function proposalItem(p) {
  const reason = el('input', { type: 'text', maxlength: '1000', placeholder: 'reason (optional)' });
  const label = el('label', { text: 'Reason ' }, reason);
  /** @param {'accept' | 'reject'} action */
  const decide = async (action) => {
    try {
      const done = await api.decideProposal(p.id, action, reason.value.trim() || null);
      const made = done.entity ? ` (${done.entity.id} created)` : done.memory ? ` (${done.memory.id} created)` : '';
      await loadPending();
      pendingStatus(`${done.proposal.id} ${done.proposal.status}${made}`);
    } catch (e) {
      pendingStatus(messageOf(e));
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

/** Loads the proposals and the tab's count. */
export async function loadPending() {
  const { proposals } = await api.getProposals();
  const waiting = proposals.filter((p) => p.status === 'pending').length;
  $('pending-count').textContent = waiting ? `(${waiting})` : '';
  // A reason being typed survives the reload (a live update can arrive at any keystroke), and so does focus.
  /** @type {Map<string | undefined, string>} */
  const typed = new Map();
  /** @type {string | undefined | null} */
  let focused = null;
  for (const item of findAll(document, '#pending-list .proposal')) {
    const input = find(item, 'input', HTMLInputElement);
    if (!input) continue;
    if (input.value !== '') typed.set(item.dataset.id, input.value);
    if (document.activeElement === input) focused = item.dataset.id;
  }
  $('pending-list').replaceChildren(...proposals.map(proposalItem));
  for (const item of findAll(document, '#pending-list .proposal')) {
    const input = find(item, 'input', HTMLInputElement);
    if (!input) continue;
    const reason = typed.get(item.dataset.id);
    if (reason !== undefined) input.value = reason;
    if (focused === item.dataset.id) input.focus();
  }
  if (proposals.length === 0) $('pending-list').append(el('li', { text: 'No proposals await a decision.' }));
}
