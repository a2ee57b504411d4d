/** The light stem Find Duplicates compares words by (near-duplicates-words.ts), with no table of its own. */

/**
 * A light English stem: the plural, third-person, past and progressive endings off a word of four letters
 * or more (a doubled consonant left by them undoubled), then a final `e`, so `take`, `takes` and `taking`
 * meet (`tak`), as do `box`/`boxes`, `battery`/`batteries`, `stop`/`stopped` and `empty`/`emptied`.
 */
export function stem(word: string): string {
  let base = word;
  if (word.length >= 4) {
    if (word.endsWith('ies') || (word.endsWith('ied') && word.length >= 5)) base = `${word.slice(0, -3)}y`;
    else if (/(?:s|x|z|ch|sh)es$/u.test(word)) base = word.slice(0, -2);
    else if (word.endsWith('ing') && word.length >= 6) base = undouble(word.slice(0, -3));
    else if (word.endsWith('ed') && word.length >= 5) base = undouble(word.slice(0, -2));
    else if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) base = word.slice(0, -1);
  }
  return base.length >= 3 && base.endsWith('e') ? base.slice(0, -1) : base;
}

/** `stopp` → `stop`, `runn` → `run` (not `ll`, `ss`, `zz`: `spell`, `miss`). */
function undouble(base: string): string {
  const last = base.at(-1);
  return last && base.length >= 3 && last === base.at(-2) && /[bdgmnprt]/u.test(last) ? base.slice(0, -1) : base;
}
