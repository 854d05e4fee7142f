import v8 from 'node:v8';

/**
 * How far the server's JavaScript heap may grow past what the last full collection kept before the next one
 * (HEAP_GROWING_PERCENT, default 50: the limit is 1.5 times the live heap; 0 leaves V8's own factor, up to 4 times).
 *
 * A server's requests live a few milliseconds too long to die in the young generation (each waits on the database
 * across scavenges), so they are promoted and die in the old one; V8 lets that garbage pile up to its growing factor,
 * which on a fast collector is up to four times the live heap, before marking it. On the event day (bench/README.md)
 * that was 74–102 MB of RSS over a minute of load with one process, nearly all of it dead objects; at 50 % it was
 * 22–27 MB, for a few more full collections (server CPU over the mix 2.24 → 2.36–2.59 ms a request, latency the same).
 *
 * Set at run time with v8.setFlagsFromString, which Node allows (its V8 flags are not frozen after start): V8 reads
 * the factor each time it computes the next limit. `test/unit/heap.test.ts` checks that the flag still exists and
 * still bounds the heap, so a Node whose V8 drops or changes it fails the tests instead of silently growing again.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
