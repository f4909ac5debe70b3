/** `store` with some methods replaced; the others still run on the store itself (the observed and the journaled stores). */
export const overriding = <T extends object>(store: T, replaced: Partial<T>): T =>
  new Proxy(store, {
    get: (target, property, receiver) => (replaced as Record<PropertyKey, unknown>)[property] ?? Reflect.get(target, property, receiver),
  });
