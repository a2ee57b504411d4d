/**
 * The tokenizer of the repository's generated test model, as llama.cpp runs it, so that the model double
 * counts what the real `llama-server` of the test tier counts.
 *
 * The vocabulary is made as `tools/llama-server/make-model.py` makes it, from the same files in the same
 * order (README.md, then `docs/*.md` as `readdirSync` lists them: `test/model-server/llama-server.ts`):
 * `<unk>`, the ChatML control tokens and the tool tags, the 256 byte tokens, every character of the text
 * (score −100), runs of 2–16 SentencePiece spaces (−50 + run), and every prefix of the 1,500 commonest words,
 * with and without a leading space (−100 + length + ln count; a piece keeps the score it was first given).
 * Scores are the GGUF's 32-bit floats.
 *
 * Tokenizing is llama.cpp's SentencePiece session (`src/llama-vocab.cpp`, `llm_tokenizer_spm_session`, and
 * `tokenize` for `LLAMA_VOCAB_TYPE_SPM`): special tokens (control, user-defined, unknown) are split out first,
 * longest first; in each text between them (no space put in front: the generator writes `add_space_prefix`
 * false) spaces become `▁`; its characters are merged pairwise, the best-scoring pair that is a piece
 * first (on a tie the leftmost), until no pair is a piece; a character that is no piece becomes its UTF-8
 * bytes. No piece holds a newline beside anything else, so each line is tokenized apart and remembered.
 *
 * Without the repository's docs (the package installed elsewhere) there is no vocabulary, and the double
 * counts its stand-in density instead (`model-prompt.ts`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPACE = '\u2581';
/** make-model.py's `--words` default. */
const WORDS = 1500;

interface Vocabulary {
  readonly ids: ReadonlyMap<string, number>;
  readonly scores: readonly number[];
  /** The special tokens, longest first, as one pattern. */
  readonly specials: RegExp;
}

let vocabulary: Vocabulary | null | undefined;

/** The repository's root, when this module runs from it (`core/src/testing` or `core/dist/testing`). */
function repositoryRoot(): string | undefined {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  return existsSync(join(root, 'tools', 'llama-server', 'make-model.py')) ? root : undefined;
}

/** Python's `open(path, encoding='utf-8').read()`: universal newlines. */
const readText = (path: string) => readFileSync(path, 'utf8').replace(/\r\n?/g, '\n');

// make-model.py's `re.findall(r"[A-Za-z_]+|[0-9]|[^\sA-Za-z_0-9]", text)`, with Python's `\s` for str
// (str.isspace: the ASCII separators \x1c–\x1f and \x85 too, not \ufeff), over code points.
const WORD =
  // eslint-disable-next-line no-control-regex -- Python's \s holds these control characters
  /[A-Za-z_]+|[0-9]|[^\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000A-Za-z_0-9]/gu;

function build(root: string): Vocabulary {
  const docs = join(root, 'docs');
  const files = [
    join(root, 'README.md'),
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(docs, f)),
  ];
  const text = files.map(readText).join('\n');
  const ids = new Map<string, number>();
  const scores: number[] = [];
  const add = (piece: string, score: number) => {
    if (ids.has(piece)) return;
    ids.set(piece, scores.length);
    scores.push(Math.fround(score));
  };
  const specials = ['<unk>', '<|endoftext|>', '<|im_start|>', '<|im_end|>'];
  const tags = ['<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>', '<think>', '</think>'];
  for (const token of [...specials, ...tags]) add(token, 0);
  for (let byte = 0; byte < 256; byte += 1) add(byteToken(byte), 0);
  const chars = [...new Set(Array.from(text))]
    .filter((c) => c !== ' ' && c !== '\n')
    .sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
  for (const char of [...chars, SPACE, '\n']) add(char, -100);
  for (let run = 2; run <= 16; run += 1) add(SPACE.repeat(run), -50 + run);
  // Counter.most_common(n): by count, most first, ties in the order first seen.
  const counts = new Map<string, number>();
  for (const word of text.match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1]).slice(0, WORDS);
  for (const [word, count] of common) {
    for (const start of ['', SPACE]) {
      const full = Array.from(start + word);
      for (let end = 1; end <= full.length; end += 1) add(full.slice(0, end).join(''), -100 + end + Math.log(count));
    }
  }
  const escaped = [...specials, ...tags]
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[|\\/]/g, (c) => `\\${c}`));
  return { ids, scores, specials: new RegExp(escaped.join('|'), 'g') };
}

const byteToken = (byte: number) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;

/** The test model's vocabulary, made once; undefined where the repository's docs are not at hand. */
function modelVocabulary(): Vocabulary | undefined {
  if (vocabulary === undefined) {
    const root = repositoryRoot();
    vocabulary = root === undefined ? null : build(root);
  }
  return vocabulary ?? undefined;
}

/** Whether the double counts with the test model's own tokenizer (else its stand-in density). */
export function hasModelTokenizer(): boolean {
  return modelVocabulary() !== undefined;
}

/** A line's pieces, remembered (prompts repeat most of their lines from one request to the next). */
const lines = new Map<string, readonly string[]>();
const MAX_LINES = 50_000;

/**
 * The pieces of `text` as the test model's tokenizer cuts it (special tokens, pieces, `<0xXX>` bytes), or
 * undefined without the vocabulary. Joined, with `▁` read as a space, they are `text`.
 */
export function modelPieces(text: string): string[] | undefined {
  const vocab = modelVocabulary();
  if (vocab === undefined) return undefined;
  const out: string[] = [];
  let at = 0;
  const raw = (part: string) => {
    // No space in front: make-model.py writes `add_space_prefix` false.
    const escaped = part.replaceAll(' ', SPACE).split('\n');
    escaped.forEach((line, i) => {
      if (i > 0) out.push('\n');
      // One piece at a time: a line of 100,000 pieces is more arguments than a call may take.
      if (line !== '') for (const piece of linePieces(vocab, line)) out.push(piece);
    });
  };
  for (const match of text.matchAll(vocab.specials)) {
    if (match.index > at) raw(text.slice(at, match.index));
    out.push(match[0]);
    at = match.index + match[0].length;
  }
  if (at < text.length) raw(text.slice(at));
  return out;
}

/** The token ids of {@link modelPieces}. */
export function modelTokenIds(text: string): number[] | undefined {
  const vocab = modelVocabulary();
  return modelPieces(text)?.map((piece) => vocab!.ids.get(piece)!);
}

function linePieces(vocab: Vocabulary, line: string): readonly string[] {
  let pieces = lines.get(line);
  if (pieces === undefined) {
    pieces = mergeLine(vocab, line);
    if (lines.size >= MAX_LINES) lines.clear();
    lines.set(line, pieces);
  }
  return pieces;
}

/** One bigram in the queue: llama.cpp's `llm_bigram_spm`. */
interface Bigram {
  readonly left: number;
  readonly right: number;
  readonly score: number;
  readonly size: number;
}

/** `llm_bigram_spm::comparator`: the higher score first, then the leftmost. */
const before = (a: Bigram, b: Bigram) => a.score > b.score || (a.score === b.score && a.left < b.left);

function mergeLine(vocab: Vocabulary, line: string): string[] {
  const text = Array.from(line);
  const prev = text.map((_, i) => i - 1);
  const next = text.map((_, i) => (i + 1 === text.length ? -1 : i + 1));
  const heap: Bigram[] = [];
  const tryAdd = (left: number, right: number) => {
    if (left === -1 || right === -1) return;
    const joined = text[left]! + text[right]!;
    const id = vocab.ids.get(joined);
    if (id === undefined) return;
    push(heap, { left, right, score: vocab.scores[id]!, size: joined.length });
  };
  for (let i = 1; i < text.length; i += 1) tryAdd(i - 1, i);
  while (heap.length > 0) {
    const bigram = pop(heap);
    const left = text[bigram.left]!;
    const right = text[bigram.right]!;
    if (left === '' || right === '' || left.length + right.length !== bigram.size) continue;
    text[bigram.left] = left + right;
    text[bigram.right] = '';
    next[bigram.left] = next[bigram.right]!;
    if (next[bigram.right]! >= 0) prev[next[bigram.right]!] = bigram.left;
    tryAdd(prev[bigram.left]!, bigram.left);
    tryAdd(bigram.left, next[bigram.left]!);
  }
  const pieces: string[] = [];
  for (let i = 0; i !== -1; i = next[i]!) {
    const symbol = text[i]!;
    if (vocab.ids.has(symbol)) pieces.push(symbol);
    else for (const byte of Buffer.from(symbol, 'utf8')) pieces.push(byteToken(byte));
  }
  return pieces;
}

function push(heap: Bigram[], item: Bigram): void {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function pop(heap: Bigram[]): Bigram {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && before(heap[l]!, heap[best]!)) best = l;
      if (r < heap.length && before(heap[r]!, heap[best]!)) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best]!, heap[i]!];
      i = best;
    }
  }
  return top;
}
