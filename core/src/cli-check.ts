import type { Application } from './application.js';

/**
 * `mira check`: the profile's manifest and the plugins in the order they set up, on stdout; with `explain`, the
 * merged manifest too, each key with the file it came from. The profile booted, so it is ok: the status is 0.
 */
export async function printCheck(app: Application, explain: boolean | undefined): Promise<number> {
  process.stdout.write(`${app.manifest.path}: ok\nprofile: ${app.manifest.name}\nplugins in order:\n`);
  app.pluginOrder.forEach((name, i) => process.stdout.write(`  ${i + 1}. ${name}\n`));
  if (explain) {
    process.stdout.write(`merged manifest (each key with the file it came from; \${VARIABLES} as written):\n`);
    const { explainManifest } = await import('./layers.js');
    for (const line of explainManifest(app.manifest.layers)) process.stdout.write(`${line}\n`);
  }
  return 0;
}
