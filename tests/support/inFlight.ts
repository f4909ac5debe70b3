/**
 * Runs `count` calls of `call(i)` with at most `limit` of them in flight at once, and answers their
 * results in the order of i (as Promise.all would for all at once).
 */
export async function inFlight<T>(limit: number, count: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await call(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return results;
}
