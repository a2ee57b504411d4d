/** Runs `body` and returns every promise rejection nobody handled while it ran. */
export async function unhandledRejectionsDuring(body: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const spy = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', spy);
  try {
    await body();
  } finally {
    process.off('unhandledRejection', spy);
  }
  return unhandled;
}
