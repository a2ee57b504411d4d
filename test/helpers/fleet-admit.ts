// One robot of the concurrency test: `node --import tsx fleet-admit.ts <url> <space> <robot> <count> <slots>`.
// It admits `count` facts into shared slots (entity i of `slots`, predicate "prefers") with values that
// conflict across robots, and prints one line per admission: `<slot> created|duplicate|conflict`.
import { PostgresMemoryStore } from '@mira/plugin-memory/postgres';

const [url, space, robot, count, slots] = process.argv.slice(2);
const store = await PostgresMemoryStore.open({ url: url!, space: space! });
try {
  for (let i = 0; i < Number(count); i += 1) {
    const entityId = 1 + ((i * 7 + Number(robot)) % Number(slots));
    const value = ['tea', 'coffee', 'water'][(i + Number(robot)) % 3]!;
    const outcome = await store.admitToSlot({ entityId, role: 'subject', predicate: 'prefers' }, (existing) => {
      if (existing.length === 0) {
        return {
          create: {
            kind: 'preference',
            summary: `E${entityId} prefers ${value}`,
            predicate: 'prefers',
            value,
            sourceKind: 'console',
            links: [{ entityId, role: 'subject' }],
          },
        };
      }
      return { answer: existing.some((m) => m.value === value) ? 'duplicate' : 'conflict' };
    });
    process.stdout.write(`${entityId} ${'created' in outcome ? 'created' : outcome.answer}\n`);
  }
} finally {
  await store.close();
}
