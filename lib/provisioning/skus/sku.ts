import type { Rule } from "../rules/rules";

/**
 * A SKU (RackHD §4.1): a class of machine, defined by rules on catalogs; a node whose latest
 * catalogs pass every rule gets the SKU's id as `sku`, and the SKU's discovery graph runs on it.
 * Schemaless, as RackHD's: other keys are kept.
 */
export interface Sku {
  id: string;
  name: string;
  rules: Rule[];
  discoveryGraphName?: string;
  discoveryGraphOptions?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}
