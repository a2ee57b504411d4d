import type { DataSource } from 'typeorm';

/**
 * Where the store prepares its hottest statements: a statement sent with a name is parsed and planned once
 * per connection, not on every call.
 */
export interface PreparingPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** A `pg` client of the data source's pool, as typeorm's `obtainMasterConnection` hands it out. */
interface PooledClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  once(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The data source's own pool through typeorm's public driver API: each statement checks a connection out
 * and gives it back, as `pg`'s `Pool.query` does. A connection that fails is given back with its error, so
 * the pool drops it; one that fails while no statement runs on it (the server restarted, the link broke)
 * is handled here, as `Pool.query` handles it: a client's `error` with no listener would end the process.
 */
export function poolOf(ds: DataSource): PreparingPool {
  return {
    async query(config) {
      const [client, release] = (await ds.driver.obtainMasterConnection()) as [PooledClient, (error?: unknown) => void];
      // pg rejects the statement itself when the link breaks, then emits 'error': that event only has to be
      // listened to (and the connection given back with it), or it ends the process.
      const onError = (error: Error) => giveBack(error);
      let released = false;
      const giveBack = (error?: unknown) => {
        if (released) return;
        released = true;
        client.removeListener('error', onError);
        release(error);
      };
      client.once('error', onError);
      try {
        const result = await client.query(config);
        giveBack();
        return result;
      } catch (error) {
        giveBack(error);
        throw error;
      }
    },
  };
}
