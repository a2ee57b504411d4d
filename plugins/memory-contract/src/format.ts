import type { Entity } from './types.js';

const quote = (text: string) => JSON.stringify(text);

/**
 * An entity on one line, as the console prints it and `recall_memory` shows
 * it to the model: `ENT1 person "Ada Lovelace" (aliases: "Ada")`.
 */
export function formatEntity(entity: Entity): string {
  const aliases =
    entity.aliases.length > 0 ? ` (aliases: ${entity.aliases.map((a) => quote(a.alias)).join(', ')})` : '';
  return `${entity.ref} ${entity.entityType} ${quote(entity.canonicalName)}${aliases}`;
}
