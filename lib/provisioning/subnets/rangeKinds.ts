/**
 * A subnet's range kinds (subnet.ts says what each means), in a module of their own: the HTTP
 * schemas, which the console's types read too, take them without the address arithmetic (Node's).
 */
export const RANGE_KINDS = ["boot", "pool", "reserved"] as const;
export type RangeKind = (typeof RANGE_KINDS)[number];
