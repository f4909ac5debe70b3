/**
 * The provisioning service's schemas (RackHD 1.1), one module per resource: JSON Schema literals,
 * the one source of the run-time check, the TypeScript types and the docs. `x-error` is the
 * contract's text for a value that fails at that node (`x-errors` per keyword). Every string and
 * array is bounded, so that no input reaches a store that cannot hold it (a DynamoDB key holds at
 * most 1 KB). Every export here is a schema named in the API document (scripts/generate.ts), so
 * building blocks live in ./fields.ts, which this module does not re-export.
 */

export {
  ConsoleAsset,
  ConsoleAssetParams,
  ConsoleNotFound,
  ConsoleSession,
  Html,
  OpenApiDocument,
  Query,
  ViewerScript,
} from "../schemas/common";
export * from "./audit/schemas";
export * from "./boot/schemas";
export * from "./catalogs/schemas";
export * from "./cloudInit/schemas";
export * from "./config/schemas";
export * from "./discovery/schemas";
export * from "./docs/schemas";
export * from "./events/schemas";
export * from "./files/schemas";
export * from "./graphs/schemas";
export * from "./hooks/schemas";
export * from "./installReports/schemas";
export * from "./library/schemas";
export * from "./login/schemas";
export * from "./lookups/schemas";
export * from "./networkPlans/schemas";
export * from "./nodes/schemas";
export * from "./obm/schemas";
export * from "./pollers/schemas";
export * from "./relays/schemas";
export * from "./shared/schemas";
export * from "./skus/schemas";
export * from "./subnets/schemas";
export * from "./tags/schemas";
export * from "./tokens/schemas";
export * from "./users/schemas";
export * from "./workflows/schemas";
