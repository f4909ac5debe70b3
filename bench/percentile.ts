/** The p-th percentile of values sorted ascending (nearest rank): what every bench and the swarm report. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
