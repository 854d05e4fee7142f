// Run by test/unit/heap.test.ts as `node --import tsx test/helpers/heapChurn.ts <percent>`: applies
// limitHeapGrowth(percent) (0: V8's own growing factor), then makes objects that live long enough to be promoted to
// the old generation and die there (a request waiting on the database does the same), and prints the largest heap
// V8 held meanwhile, in MB.
import { limitHeapGrowth } from '../../api/heap.js';

limitHeapGrowth(Number(process.argv[2] ?? 0));
let peak = 0;
const living: object[][] = [];
for (let i = 0; i < 400; i++) {
  const batch: object[] = [];
  for (let j = 0; j < 20_000; j++) batch.push({ a: j, b: `x${j}`, c: [j, j + 1] });
  living.push(batch);
  if (living.length > 8) living.shift();
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
console.log(JSON.stringify({ peakMb: peak / 1048576 }));
