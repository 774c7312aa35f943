// A test helper process: writes review facts to a store in a loop (bundled by the global setup).
import { FactStore } from '../../src/main/store/facts-store';

const [home, prefix, countText] = process.argv.slice(2);
const store = new FactStore(home ?? '.');
const count = Number(countText ?? '0');
for (let index = 0; count === 0 || index < count; index += 1) {
  const now = Date.now();
  store.update(now, (file) => {
    file.reviews[`${prefix}:${index}`] = { state: 'reviewed', at: new Date(now).toISOString(), lastActivityAt: null };
    // A heavier file makes a kill during the write more likely to land mid-write.
    if (count === 0) file.notified.push({ id: `${prefix}-${index}-${'x'.repeat(200)}`, at: new Date(now).toISOString() });
  });
}
