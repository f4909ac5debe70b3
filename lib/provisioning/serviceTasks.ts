import { performEffect } from "./discovery/effects";
import { relayTaskOutcomes } from "./relays/relayTasks";
import type { ServiceTaskKinds } from "./workflows/taskKinds";

/**
 * The workflow orchestration's service task kinds (workflows/taskKinds.ts), composed here from the
 * folders that may not import each other: given by the stores' composition root
 * (lib/store/compositionRoot.ts, `provisioningStores()`), so every function that reaches a store
 * has them, and by the unit and contract tiers' set-up, whose tests compose stores themselves.
 * A value given by a call, not an import for its effect: the package is `"sideEffects": false`,
 * so a bundler drops an import that names nothing.
 */
export const SERVICE_TASK_KINDS: ServiceTaskKinds = { effect: performEffect, relay: relayTaskOutcomes };
