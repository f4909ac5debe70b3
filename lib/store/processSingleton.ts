/**
 * One instance per process (per Lambda container), even though esbuild gives every handler its
 * own bundle with its own copy of each module: the instance lives on globalThis under a
 * registry-wide Symbol, which every bundle in the process resolves to the same key.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`lambda-tasks-provisioning.${name}`);
  const slot = globalThis as unknown as Record<symbol, T | undefined>;
  let value = slot[key];
  if (value === undefined) {
    value = create();
    slot[key] = value;
  }
  return value;
}

/** Forgets a process singleton (tests use it to start from an empty store). */
export function resetProcessSingleton(name: string): void {
  delete (globalThis as unknown as Record<symbol, unknown>)[Symbol.for(`lambda-tasks-provisioning.${name}`)];
}
