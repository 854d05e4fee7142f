// Order statistics of a benchmark's samples.

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** The p-th percentile (nearest rank) of xs; NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN;
  const s = sorted(xs);
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))];
}

/** The middle sample (the upper one of an even count); NaN for no samples. */
export const median = (xs: readonly number[]): number => (xs.length ? sorted(xs)[Math.floor(xs.length / 2)] : NaN);
