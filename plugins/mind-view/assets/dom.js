// Building blocks of the page's DOM. Every piece of memory text is inserted with textContent, never as HTML.

/**
 * The page's element of this ID, of the given class (any HTML element when none).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [type]
 * @returns {T}
 */
export function $(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof (type ?? HTMLElement))) throw new Error(`the page has no ${type?.name ?? 'element'} #${id}`);
  return /** @type {T} */ (node);
}

/**
 * The first element under `root` that the selector matches, of the given class, or null.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {ParentNode} root
 * @param {string} selector
 * @param {new () => T} [type]
 * @returns {T | null}
 */
export function find(root, selector, type) {
  const node = root.querySelector(selector);
  return node instanceof (type ?? HTMLElement) ? /** @type {T} */ (node) : null;
}

/**
 * Every element under `root` that the selector matches, of the given class.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {ParentNode} root
 * @param {string} selector
 * @param {new () => T} [type]
 * @returns {T[]}
 */
export function findAll(root, selector, type) {
  const wanted = type ?? HTMLElement;
  return /** @type {T[]} */ ([...root.querySelectorAll(selector)].filter((node) => node instanceof wanted));
}

/**
 * An element's properties: `text` (its textContent), `className`, `on<event>` (a listener), else attributes.
 * @typedef {Record<string, string | ((event: Event) => unknown)>} Props
 */

/**
 * A new element with its properties and children (falsy children are left out).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (typeof v === 'function') {
      if (!k.startsWith('on')) throw new TypeError(`${k}: only an on<event> property takes a function`);
      node.addEventListener(k.slice(2), v);
    } else if (k === 'text') node.textContent = v;
    else if (k === 'className') node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** What a caught error says (an Error's message; anything else as text). @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));

const UNLABELED = '#595959';
/**
 * Twelve hues 30° apart: neighbours on a continuous wheel (person at 128°, place at 116°) read as one colour.
 * At 65 % saturation and 26 % lightness every one keeps white text at 5.4:1 or more (WCAG AA asks 4.5:1).
 */
const HUES = [0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330];
/** A label's own slot: a hash of its text, so it is the same in every scope and whatever the counts. */
const slotOf = (/** @type {string} */ label) => {
  let h = 2166136261;
  for (const ch of label) h = Math.imul(h ^ /** @type {number} */ (ch.codePointAt(0)), 16777619) >>> 0;
  // The hash's high bits: FNV's low bits follow the last letters too closely (person and place share them).
  return (h >>> 16) % HUES.length;
};
/**
 * A label's colour, a function of the label alone — the same in every scope, whatever the counts: one of
 * twelve hues 30° apart, so two labels either share a colour or are told apart at a glance (two hues of a
 * continuous wheel, person at 128° and place at 116°, read as one green).
 * @param {string} label
 */
export function colorOf(label) {
  if (label === 'unlabeled') return UNLABELED;
  return `hsl(${HUES[slotOf(label)]} 65% 26%)`;
}

/** @param {string} label */
export function labelBadge(label) {
  const badge = el('span', { className: 'label', text: label });
  badge.style.background = colorOf(label);
  return badge;
}

/** The longest status line shown (an error quoting a long note stays readable). */
const MAX_STATUS = 300;

/** Says something on the Memories tab's status line. @param {string} text */
export function status(text) {
  const chars = [...String(text)];
  $('status').textContent = chars.length > MAX_STATUS ? `${chars.slice(0, MAX_STATUS - 1).join('')}…` : text;
}

/**
 * Every delete on the page asks first, with the same question: the card's ✕ and the duplicates walk's
 * "Delete N…" alike. Nothing is removed unless the person says yes.
 * @param {number} id
 */
export function confirmDelete(id) {
  return window.confirm(`Delete N${id}? This cannot be undone.`);
}
