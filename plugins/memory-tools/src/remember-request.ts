/**
 * A request to remember ("Can you remember that Hope is a nurse?", "…だって覚えておいてくれる？"): what it asks to keep
 * is a sentence of its own, and the request's mark and close are not that sentence's.
 */
import type { AssertionRules } from './assertion-rules.js';
import { AROUND_START, sentenceAround, sentenceCore } from './sentence-reading.js';

/**
 * Where what a request to remember asks to keep begins, when one opens the sentence at `start` and ends by
 * `evidenceStart` ("Can you remember that X?"); undefined when none does.
 */
function requestBefore(
  utterance: string,
  start: number,
  evidenceStart: number,
  rules: AssertionRules,
): number | undefined {
  if (!rules.requests) return undefined;
  const before = utterance.slice(start, evidenceStart);
  const lead = AROUND_START.exec(before)?.[0].length ?? 0;
  for (const pattern of rules.requests) {
    const found = pattern.exec(before.slice(lead));
    if (found && found.index === 0) return start + lead + found[0].length;
    // A lead-in may itself look like the request's start ("Hey, can you…"): read from the sentence's start too.
    const plain = pattern.exec(before.trimStart());
    if (plain && plain.index === 0) return evidenceStart - before.trimStart().length + plain[0].length;
  }
  return undefined;
}

/** The sentence of the evidence at `span` as the rules read it ({@link evidenceSentence}). */
export interface EvidenceSentence {
  /** Where it begins and ends in the utterance. */
  readonly start: number;
  readonly end: number;
  /** Whether a request to remember opens or closes it (its question mark is then the request's). */
  readonly requested: boolean;
  readonly sentence: string;
  /** The sentence without what stands around it ({@link sentenceCore}). */
  readonly core: string;
}

/** The sentence holding the evidence at `span` of `utterance`, less a request to remember around it. */
export function evidenceSentence(
  utterance: string,
  span: readonly [number, number],
  rules: AssertionRules,
): EvidenceSentence {
  const around = sentenceAround(utterance, span);
  let start = around[0];
  let end = around[1];
  // "Can you remember that Hope is a nurse?": what is to be remembered is a sentence of its own, and the
  // request's mark is not its mark.
  let request = requestBefore(utterance, start, span[0], rules);
  if (request !== undefined) start = request;
  // The same where the request closes the sentence ("…だって覚えておいてくれる？"): the sentence ends with the evidence.
  else if (rules.requestsAfter && rules.requestsAfter.some((after) => after.test(utterance.slice(span[1], end)))) {
    end = span[1];
    request = start;
  }
  let sentence = utterance.slice(start, end);
  let core = sentenceCore(request === undefined ? sentence : sentence.replace(/[?？؟]+(?=[^?？؟]*$)/u, ''));
  // The request's own close after what it asks to keep ("…，好吗", Korean "…다고 기억해 줘"'s 고) is the request's too.
  if (request !== undefined)
    for (const close of rules.requestEnds ?? []) {
      core = core.replace(close, '').replace(/[\s,，、]+$/u, '');
      sentence = sentence.replace(close, '');
    }
  return { start, end, requested: request !== undefined, sentence, core };
}
