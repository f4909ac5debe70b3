import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import type { Workflow, WorkflowTask } from "../workflowEngine/workflow";

/** How a task the service carries out ended; an effect task may name a graph to start once its workflow has ended (run-sku-graph). */
export interface TaskOutcome {
  state: "succeeded" | "failed";
  error?: string;
}
export interface EffectOutcome extends TaskOutcome {
  thenStart?: { name: string; options: Record<string, unknown> };
}
export interface RelayTaskOutcome extends TaskOutcome {
  taskId: string;
}

/**
 * The task kinds whose work is the service's own, beside the engine's instant ones and those a
 * machine reports: `effect` (work on the service's records: a node's SKU, tags, pollers, BMC
 * settings; discovery/effects.ts) and `relay` (a BMC action through the node's site's relay;
 * relays/relayTasks.ts). They are given to the orchestration, not imported by it: each reads the
 * workflows it advances (discovery's and the relay's routes start and resume them), and an import
 * back would tie the folders in a knot (tests/unit/architecture/boundaries.test.ts).
 */
export interface ServiceTaskKinds {
  /** Does an effect task's work; it may run again after a crash, so it is idempotent. It touches only these stores. */
  effect(
    stores: StoresOf<"catalogs" | "definitions" | "nodes" | "pollers" | "skus" | "tags">,
    node: Node,
    task: WorkflowTask,
    now: Date,
    secrets?: Record<string, string>,
  ): Promise<EffectOutcome>;
  /** Queues the relay jobs of the workflow's running relay tasks, and answers the outcomes of those whose job has ended. */
  relay(stores: StoresOf<"relayJobs">, workflow: Workflow, node: Node, now: Date): Promise<RelayTaskOutcome[]>;
}

let given: ServiceTaskKinds | undefined;

/** Gives the orchestration its service task kinds: once, where the stores are composed (lib/provisioning/serviceTasks.ts, by `provisioningStores()`). */
export function giveTaskKinds(kinds: ServiceTaskKinds): void {
  given = kinds;
}

/** The service task kinds given; a composition that forgot them fails here, by name, before any task runs. */
export function taskKinds(): ServiceTaskKinds {
  if (!given)
    throw new Error(
      "The workflow orchestration has no service task kinds (effect, relay): give SERVICE_TASK_KINDS (lib/provisioning/serviceTasks.ts) where the stores are composed, as provisioningStores() does (lib/store/compositionRoot.ts)",
    );
  return given;
}
