import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isMiraError, type MiraError } from '@mira/core';
import { SqliteNotesStore, type Embedder } from '@mira/plugin-notes';
import { exportOf, operator } from './support.js';

/** An embedder with a vector per text, as scripted (a text it was not given gets the last of `fallback`). */
class TableEmbedder implements Embedder {
  readonly name: string;
  readonly destination = 'this test';
  /** Called with each batch, before it is answered. */
  onEmbed: (texts: readonly string[]) => void = () => {};
  constructor(
    private readonly table: Record<string, number[]>,
    private readonly fallback: number[] = [0, 0, 0, 1],
    name = 'test:table',
  ) {
    this.name = name;
  }
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.onEmbed(texts);
    return texts.map((text) => Float32Array.from(this.table[text] ?? this.fallback));
  }
}

async function rejected(promise: Promise<unknown>): Promise<MiraError> {
  try {
    await promise;
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error('expected a MiraError');
}

describe('SqliteNotesStore vectors (store/vectors.ts)', () => {
  let dir: string;
  let path: string;
  const opened: SqliteNotesStore[] = [];
  const open = (embedder?: Embedder) => {
    const store = SqliteNotesStore.open(path, { ...(embedder ? { embedder } : {}), log: () => {} });
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-vectors-'));
    path = join(dir, 'notes.sqlite3');
  });
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('orders vector neighbours by their similarity, not by how few sign bits they differ in', async () => {
    // The query's signs are ++++. "alpha" differs in one sign but points almost the same way (cosine 0.98);
    // "beta" has every sign right and points elsewhere (cosine 0.48): the binary codes put beta first.
    const store = open(
      new TableEmbedder({
        zzq: [1, 0.2, 0.2, 0.2],
        alpha: [1, 0.2, 0.2, -0.01],
        beta: [0.3, 1, 1, 1],
      }),
    );
    await store.save('default', 'beta', null, null);
    await store.save('default', 'alpha', null, null);
    const result = await store.search(operator(), 'zzq');
    expect(result.mode).to.equal('hybrid');
    expect(result.hits.map((h) => h.note.content)).to.deep.equal(['alpha', 'beta']);
  });

  it('re-embeds an empty store into no vectors, recording no embedder', async () => {
    const store = open(new TableEmbedder({}));
    expect(await store.reembed()).to.equal(0);
    expect(store.embeddingState()).to.deep.equal({
      stored: undefined,
      dimension: undefined,
      configured: 'test:table',
      mismatch: false,
    });
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'note_vectors%'").pluck().all()).to.deep.equal(
        [],
      );
    } finally {
      db.close();
    }
  });

  it('refuses a reembed whose vectors differ in size, keeping the vectors it had', async () => {
    const first = new TableEmbedder({ one: [1, 0, 0, 0], two: [0, 1, 0, 0] });
    let store = open(first);
    await store.save('default', 'one', null, null);
    await store.save('default', 'two', null, null);
    store.close();
    store = open(new TableEmbedder({ one: [1, 0, 0], two: [0, 1, 0, 0] }, undefined, 'test:uneven'));
    const error = await rejected(store.reembed(1));
    expect(error.code).to.equal('MIRA_ERR_NOTES_EMBEDDER_FAILED');
    expect(error.message).to.contain('4').and.contain('3');
    expect(store.embeddingState()).to.deep.include({ stored: 'test:table', dimension: 4 });
  });

  it('refuses to put its vectors in place when another reembed wrote the same table meanwhile', async () => {
    const embedder = new TableEmbedder({ one: [1, 0, 0, 0], two: [0, 1, 0, 0], three: [0, 0, 1, 0] });
    const store = open(embedder);
    for (const text of ['one', 'two', 'three']) await store.save('default', text, null, null);
    const other = new Database(path);
    try {
      // Another process's reembed starts its table afresh between two of this one's slices.
      embedder.onEmbed = () =>
        setImmediate(() => other.exec('DELETE FROM note_vectors_v3_next WHERE id = (SELECT min(id) FROM notes)'));
      const error = await rejected(store.reembed());
      expect(error.code).to.equal('MIRA_ERR_NOTES_BACKEND');
      expect(error.message).to.contain('another reembed ran at the same time; run "notes reembed" again');
    } finally {
      embedder.onEmbed = () => {};
      other.close();
    }
    expect(store.embeddingState().stored).to.equal('test:table');
    expect((await store.search(operator(), 'zzz')).mode).to.equal('hybrid');
  });

  it('finds the notes of an import another process finished after this one had read them staged', async () => {
    const embedder = new TableEmbedder({ zzq: [1, 0, 0, 0], 'chai in the blue tin': [1, 0, 0.1, 0] });
    const reader = open(embedder);
    await reader.save('default', 'unrelated', null, null);
    // An import in slices (over 1,000 notes) stages its notes under a scope no viewer names, then moves them.
    const writer = open(embedder);
    const staged = exportOf('imported', []);
    staged.notes = Array.from({ length: 1001 }, (_, i) => {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
      return { content: 'chai in the blue tin', labels: [], private_key: null, created_at: at, updated_at: at };
    });
    const importing = writer.importNotes(staged);
    // The reader's index takes in whatever vectors are there while the import runs.
    let reading = true;
    const readAlong = async () => {
      while (reading) {
        await reader.search(operator(), 'zzq');
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const along = readAlong();
    expect((await importing).added).to.equal(1001);
    reading = false;
    await along;
    // Found by its vector alone: the reader's index must hold the notes under their scope now.
    const hits = await reader.search(operator('imported'), 'zzq');
    expect(hits.mode).to.equal('hybrid');
    expect(hits.hits).to.have.length(10);
  });
});
