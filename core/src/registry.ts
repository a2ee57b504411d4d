import { CoreErrors } from './errors.js';

/**
 * Named things with the plugin that registered each. A second registration
 * of a name fails and names both plugins.
 */
export class Registry<T> {
  readonly #items = new Map<string, { item: T; owner: string }>();

  constructor(private readonly what: string) {}

  add(name: string, item: T, owner: string): void {
    const existing = this.#items.get(name);
    if (existing) {
      throw CoreErrors.error('DUPLICATE_REGISTRATION.registry', {
        what: this.what,
        name,
        owner,
        owner2: existing.owner,
      });
    }
    this.#items.set(name, { item, owner });
  }

  get(name: string): T | undefined {
    return this.#items.get(name)?.item;
  }

  ownerOf(name: string): string | undefined {
    return this.#items.get(name)?.owner;
  }

  has(name: string): boolean {
    return this.#items.has(name);
  }

  /** Items in registration order. */
  values(): T[] {
    return [...this.#items.values()].map((entry) => entry.item);
  }

  names(): string[] {
    return [...this.#items.keys()];
  }
}
