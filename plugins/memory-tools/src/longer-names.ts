/**
 * Which entity a name in the evidence is: the store's entities of that name, and of the longer names that begin
 * where it begins (Anna → Anna Maria, 박지 → 박지훈), so a shorter name never takes what is said of a longer one.
 */
import type { MemoryStore } from '@mira/memory-contract';
import { fitsField } from './proposal-fields.js';
import { reject, type RememberReason } from './remember-reasons.js';
import type { MatchText } from './span-match.js';

/** A name that another entity's longer name holds at the same place. */
const LONGER_NAME =
  "another known entity's name starts with this one at the same place in the evidence, so the evidence may be about that one; nothing was written";
/** How far past a name's end a longer name is looked for: words after it, and characters in scripts without spaces. */
const LONGER_NAME_WORDS = 3;
const LONGER_NAME_CHARACTERS = 8;
/** Letters joined to a name's end. */
const JOINED_LETTERS = /^[\p{L}\p{M}\p{N}]+/u;
/** The next few words after a name: each a run of separators (space, middle dots, hyphen), then letters. */
const NEXT_WORDS = new RegExp(`^(?:[\\s·・-]+[\\p{L}\\p{M}\\p{N}'’.-]+){1,${LONGER_NAME_WORDS}}`, 'u');
/** One of those words. */
const NEXT_WORD = /[\s·・-]+[\p{L}\p{M}\p{N}'’.-]+/gu;

/**
 * The longer names that begin where the name at `[start, end)` of the clause begins: the name with each of the
 * next few words (Anna → Anna Maria), and with each of the next few letters of the word it ends inside or
 * before (박지 → 박지훈, 张 → 张伟, 田中 → 田中太郎). Each is longer than the one before.
 */
export function longerNames(clause: MatchText, [start, end]: readonly [number, number]): string[] {
  const text = clause.original;
  const names: string[] = [];
  // Letters joined to the name (no space between): each prefix of that run.
  const joined = JOINED_LETTERS.exec(text.slice(end))?.[0] ?? '';
  let at = end;
  for (const character of Array.from(joined).slice(0, LONGER_NAME_CHARACTERS)) {
    at += character.length;
    names.push(text.slice(start, at));
  }
  // Whole words after it.
  let next = end + joined.length;
  for (const word of NEXT_WORDS.exec(text.slice(next))?.[0].match(NEXT_WORD) ?? []) {
    next += word.length;
    names.push(text.slice(start, next));
  }
  return names;
}

/**
 * The longer names that begin where the name begins at each of `spans` ({@link longerNames}), up to the first
 * that is longer than any name can be (the store refuses to look such a text up).
 */
export function longerCandidates(clause: MatchText, spans: ReadonlyArray<readonly [number, number]>): string[] {
  const longer: string[] = [];
  for (const span of spans) {
    const names = longerNames(clause, span);
    // Each name holds the one before it, and a text's matching form never shrinks as text is added to it
    // (what NFKC composes stays one character): when the longest fits, all do.
    // Stryker disable next-line ConditionalExpression: equivalent, one by one they fit alike
    if (names.length > 0 && fitsField(names[names.length - 1]!)) longer.push(...names);
    else
      for (const candidate of names) {
        if (!fitsField(candidate)) break;
        longer.push(candidate);
      }
  }
  return longer;
}

/**
 * The one entity of a name from what the store found for it (`found`) and for its longer names (`others`):
 * refused when none or several have it, or when it is the beginning of another known entity's name at the
 * same place in the evidence (entities 박지 and 박지훈, "박지훈은 녹차를 좋아해요" proposed for 박지): the
 * shorter name never silently takes what is said of the longer one. A longer name of the same entity (an
 * alias) is no ambiguity.
 */
export function resolved(
  ids: readonly (readonly number[])[],
  notFound: RememberReason,
  ambiguous: RememberReason,
): number {
  const found = ids[0]!;
  if (found.length === 0) reject(notFound);
  if (found.length > 1) reject(ambiguous);
  const id = found[0]!;
  for (let i = 1; i < ids.length; i += 1) if (ids[i]!.some((other) => other !== id)) reject(ambiguous, [], LONGER_NAME);
  return id;
}

/**
 * Resolves `name` ({@link resolved}) with its longer names at `spans` in one store call: one round trip to a
 * fleet server, as the name alone took. With no spans (the robot's own name for "you") only the name counts.
 */
export async function resolveNamed(
  store: MemoryStore,
  name: string,
  clause: MatchText,
  spans: ReadonlyArray<readonly [number, number]>,
  notFound: RememberReason,
  ambiguous: RememberReason,
): Promise<number> {
  return resolved(await store.findEntityIdsOfEach([name, ...longerCandidates(clause, spans)]), notFound, ambiguous);
}
