import { CoreErrorCodes, MiraError } from './errors.js';

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
      throw new MiraError(
        CoreErrorCodes.DUPLICATE_REGISTRATION,
        `${this.what} "${name}" of plugin ${owner} is already registered by plugin ${existing.owner}; rename one of them or remove one plugin from the profile`,
      );
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
