/**
 * The provisioning service's routes (RackHD 1.1, under /api/{1.1|current|common}), one module per
 * resource. Northbound routes are for operators (behind PROVISIONING_AUTH); southbound ones for
 * booting machines (never behind auth). Entries are object literals without spreads, so a bundle
 * keeps only the entry (and validators) its handler uses.
 */

export * from "./audit/routes";
export * from "./boot/routes";
export * from "./catalogs/routes";
export * from "./cloudInit/routes";
export * from "./config/routes";
export * from "./discovery/routes";
export * from "./docs/routes";
export * from "./events/routes";
export * from "./files/routes";
export * from "./graphs/routes";
export * from "./hooks/routes";
export * from "./installReports/routes";
export * from "./library/routes";
export * from "./login/routes";
export * from "./lookups/routes";
export * from "./networkPlans/routes";
export * from "./nodes/routes";
export * from "./obm/routes";
export * from "./pollers/routes";
export * from "./relays/routes";
export * from "./skus/routes";
export * from "./subnets/routes";
export * from "./tags/routes";
export * from "./tokens/routes";
export * from "./users/routes";
export * from "./workflows/routes";
