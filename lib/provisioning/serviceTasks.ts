/**
 * Gives the workflow orchestration its service task kinds (workflows/taskKinds.ts): the composition
 * of folders that may not import each other. Imported for its effect by the stores' composition
 * root (lib/store/compositionRoot.ts), so every function that reaches a store has them, and by the
 * unit tier's set-up, whose tests compose stores themselves.
 */
import { performEffect } from "./discovery/effects";
import { relayTaskOutcomes } from "./relays/relayTasks";
import { giveTaskKinds } from "./workflows/taskKinds";

giveTaskKinds({ effect: performEffect, relay: relayTaskOutcomes });
