// Export and import of a scope's notes, in the file format of the console's `notes export`.
import * as api from './api.js';
import { $, el, messageOf, status } from './dom.js';
import { loadNotes } from './notes.js';
import { loadScopes } from './scopes.js';
import { state } from './state.js';

/** Downloads the scope's notes as an export file. */
export async function exportScope() {
  const data = await api.exportScope(state.scope);
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

/** Imports an export file into the scope on screen, saying how much is sent as it goes. @param {File} file */
export async function importFile(file) {
  const bar = $('import-progress', HTMLProgressElement);
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
    const result = await api.importNotes(state.scope, file, (sent, total) => {
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
    status(messageOf(e));
  } finally {
    bar.hidden = true;
    // The same file can be chosen again (after fixing it, say).
    $('import', HTMLInputElement).value = '';
  }
}
