/**
 * A plan's interface types and bond modes (networkPlan.ts says what each means), in a module of
 * their own: the HTTP schemas, which the console's types read too, take them without the domain's
 * checks (which use Node's address parser).
 */
export const BOND_MODES = ["active-backup", "802.3ad", "balance-alb"] as const;
export type BondMode = (typeof BOND_MODES)[number];
export const INTERFACE_TYPES = ["ethernet", "bond", "vlan"] as const;
