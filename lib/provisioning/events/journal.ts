import type { Node } from "../nodes/node";
import type { RelayJob } from "../relays/job";
import type { RelayCredential } from "../relays/site";
import type { Workflow } from "../workflowEngine/workflow";
import {
  type DisablableHook,
  hookChangeEvents,
  nodeChangeEvents,
  relayCredentialChangeEvents,
  relayJobChangeEvents,
  workflowChangeEvents,
} from "./changeEvents";
import type { ChangeEvents } from "./eventLog";

/**
 * The stores whose writes record events, each with the rule that makes them. A function that
 * writes one of them writes the events store too (lib/dataAccess.ts `withWriteEffects`).
 */
export const JOURNALED = {
  nodes: nodeChangeEvents as ChangeEvents<Node>,
  workflows: workflowChangeEvents as ChangeEvents<Workflow>,
  relayJobs: relayJobChangeEvents as ChangeEvents<RelayJob>,
  relayCredentials: relayCredentialChangeEvents as ChangeEvents<RelayCredential>,
  hooks: hookChangeEvents as ChangeEvents<DisablableHook>,
} as const;

export type JournaledStore = keyof typeof JOURNALED;
