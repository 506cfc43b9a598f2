// Timing helpers: warm up, then take the median of several rounds so one GC pause or a noisy
// neighbour does not decide the result. Ratios compare paths measured in the same process.
import { performance } from 'node:perf_hooks';

export async function measure(name, fn, { iterations = 2000, rounds = 7, warmup = 300 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const perOp = [];
  let offset = warmup;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn(offset + i);
    perOp.push((performance.now() - start) / iterations);
    offset += iterations;
  }
  perOp.sort((a, b) => a - b);
  const median = perOp[Math.floor(perOp.length / 2)];
  return { name, iterations, rounds, medianMsPerOp: median, opsPerSecond: 1000 / median };
}

export function ratio(measured, baseline) {
  return measured.medianMsPerOp / baseline.medianMsPerOp;
}

/** The median; of an even count, the mean of the middle two. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
