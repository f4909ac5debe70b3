import { ConflictError, ForbiddenError, isDomainError, NotFoundError, ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import type { ApiContext } from "../apiContext";
import { endMachineCredentials, forgetInstance } from "../cloudInit/instanceService";
import { findGraph, taskFinder } from "../graphs/libraryService";
import { ERASE_MODES, type EraseMode } from "../graphs/lifecycleGraphs";
import { entryTask } from "../graphs/taskDefinitions";
import { newUuid } from "../ids";
import { prepareDeploy, releaseAddresses } from "../networkPlans/planService";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { type Action, actionsFrom, begin, type Provisioning, stateOf, TRANSITIONS, transitionFrom, undo } from "../nodes/provisionState";
import type { StoresOf } from "../ports";
import { REDACTED, redact } from "../secrets";
import { ACTIVE_CONFLICT, type Workflow } from "../workflowEngine/workflow";
import { activeWorkflowOf, startWorkflow, type WorkflowStores } from "../workflows/workflowService";
import { parseSshPublicKey } from "./sshPublicKey";

/**
 * A node's life-cycle actions (issue 53): POST /nodes/{identifier}/actions. An action checks the
 * node's state (409 naming both), its own options (400), that no workflow runs on the node (409),
 * then moves the node into the action's transitional state by a conditional write (two actions
 * side by side: one wins, the other is a 409) and starts the action's graph, whose end moves the
 * node on (workflows/workflowService.ts, settleProvisionState). A graph that does not start
 * returns the node to where it was.
 */

export interface ActionRequest {
  action: Action;
  options?: Record<string, unknown>;
}

/**
 * Who asks for an action: their name (as the audit trail records it: a Basic user's bare name,
 * `oidc:<name>`, `client:<id>`), the groups they are in (`group:<name>`), and whether they
 * administer a site (undefined: a machine of no site). An allocation's owner is one of these, and
 * only its owner or an administrator of its site may act on the machine it holds.
 */
export interface Actor {
  name: string;
  memberOf: readonly string[];
  administers: (site: string | undefined) => boolean;
}

/** The actions on a machine an owner holds: its owner's, or an administrator's of its site. */
const OWNERS_ACTIONS: ReadonlySet<Action> = new Set<Action>(["deallocate", "deploy", "redeploy", "release", "rescue", "unrescue"]);

const siteOf = (node: Node): string | undefined => (typeof node.site === "string" ? node.site : undefined);

/** Whether the actor is the owner: the owner's own name, or a group of theirs. */
const holds = (actor: Actor, owner: string): boolean => actor.name === owner || actor.memberOf.includes(owner);

/**
 * The owner an allocation records: the actor, unless they name a group they are in; an
 * administrator of the machine's site may name anyone (a team's lead handing a machine on).
 */
function ownerFor(actor: Actor, node: Node, named: string | undefined): string {
  if (named === undefined || named === actor.name) return actor.name;
  if (holds(actor, named) || actor.administers(siteOf(node))) return named;
  throw new ValidationError(
    `options.owner must be you (${actor.name}) or a group of yours (${actor.memberOf.join(", ") || "you are in none"}); an administrator of the machine's site may name another`,
  );
}

/** Refuses an action on a held machine to any but its owner and its site's administrators. */
function ownerOnly(actor: Actor, node: Node, action: Action): void {
  const owner = node.provisioning?.owner;
  if (!OWNERS_ACTIONS.has(action) || owner === undefined || holds(actor, owner) || actor.administers(siteOf(node))) return;
  throw new ForbiddenError(`Node ${node.id} is held by ${owner}: only its owner or an administrator of its site may ${action} it`);
}

export interface ActionSettings {
  /** RELEASE_ERASE: a release's erase when it names none. */
  releaseErase: EraseMode;
}

export type ActionStores = WorkflowStores & StoresOf<"addresses" | "instances" | "subnets">;

/** What an action runs: its graph and options, what it records on the node, what it ends first. */
interface Plan {
  graph: string;
  options: Record<string, unknown>;
  changes?: Partial<Provisioning>;
  /** Done once the node is in its transitional state, before the graph starts. */
  before?: (stores: ActionStores, node: Node, now: Date) => Promise<void>;
}

const text = (options: Record<string, unknown>, key: string, max: number, required: boolean): string | undefined => {
  const value = options[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || value.trim() === "" || value.length > max) {
    throw new ValidationError(`options.${key} must be a non-empty string of at most ${max} characters`);
  }
  return value;
};

const noOtherOptions = (action: Action, options: Record<string, unknown>, allowed: readonly string[]): void => {
  const unknown = Object.keys(options).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw new ValidationError(
      `Action ${action} takes no option ${unknown}${allowed.length > 0 ? ` (it takes ${allowed.join(", ")})` : " (it takes none)"}`,
    );
  }
};

/** The install graph a deploy runs: it must exist and install something (a task of the install kind). */
async function installGraph(stores: StoresOf<"definitions">, name: string): Promise<void> {
  const graph = await findGraph(stores, name);
  if (!graph) throw new NotFoundError(`Graph definition not found for ${name}`);
  const tasks = await taskFinder(stores);
  if (!graph.tasks.some((entry) => entryTask(entry, tasks)?.kind === "install")) {
    throw new ValidationError(
      `Graph ${name} installs nothing (it has no install task): deploy runs an install graph, such as Graph.InstallImage`,
    );
  }
}

async function plan(stores: ActionStores, node: Node, request: ActionRequest, settings: ActionSettings, actor: Actor): Promise<Plan> {
  const options = request.options ?? {};
  const action = request.action;
  switch (action) {
    case "provide": {
      noOtherOptions(action, options, []);
      if (node.obmSettings.length === 0) {
        throw new ConflictError(`Node ${node.id} has no OBM setting: set its BMC (PUT /nodes/${node.id}/obm) before it is ready`);
      }
      if ((await stores.catalogs.forNode(node.id)).length === 0) {
        throw new ConflictError(`Node ${node.id} has no catalogs: discover it (Graph.Discovery) before it is ready`);
      }
      return { graph: "Graph.Lifecycle.Provide", options: {} };
    }
    case "allocate": {
      noOtherOptions(action, options, ["owner", "purpose"]);
      const owner = ownerFor(actor, node, text(options, "owner", 200, false));
      const purpose = text(options, "purpose", 1000, false);
      return { graph: "Graph.Lifecycle.Allocate", options: {}, changes: { owner, ...(purpose !== undefined && { purpose }) } };
    }
    case "deallocate":
      noOtherOptions(action, options, []);
      return { graph: "Graph.Lifecycle.Deallocate", options: {} };
    case "deploy":
    case "redeploy": {
      noOtherOptions(action, options, ["graph", "options"]);
      const last = node.provisioning?.deploy;
      // Redeploy runs the last deploy's graph unless it names another (a deploy always names one).
      const graph = text(options, "graph", 200, action === "deploy" || !last) ?? (last as { graph: string }).graph;
      if (options.options !== undefined && !isPlainObject(options.options))
        throw new ValidationError("options.options must be a JSON object");
      const graphOptions = (options.options as Record<string, unknown> | undefined) ?? (graph === last?.graph ? last.options : {});
      if (JSON.stringify(graphOptions).includes(`"${REDACTED}"`)) {
        throw new ValidationError(`The last deploy's options held secrets, which are not kept: give options.options again to ${action}`);
      }
      await installGraph(stores, graph);
      return {
        graph,
        options: graphOptions,
        // What redeploy runs again, its secrets redacted (never kept: redeploy then asks for them).
        changes: { deploy: { graph, options: redact(graphOptions) } },
        // The network plan's addresses are given (again, after a release); redeploy: the old
        // install's credentials end now, not at the new install's first fetch.
        before: async (held, target, now) => {
          await prepareDeploy(held, target, now);
          if (action === "redeploy") await endMachineCredentials(held, target.id, now);
        },
      };
    }
    case "release": {
      noOtherOptions(action, options, ["erase"]);
      const erase = options.erase ?? settings.releaseErase;
      if (!(ERASE_MODES as readonly unknown[]).includes(erase))
        throw new ValidationError(`options.erase must be one of ${ERASE_MODES.join(", ")}`);
      return {
        graph: "Graph.Lifecycle.Release",
        options: { "erase-disks": { mode: erase } },
        // The installed system's credentials and its user-data go with the owner.
        // The network plan's addresses go back to their pools (the plan stays).
        before: async (held, target, now) => {
          await forgetInstance(held, target.id);
          await releaseAddresses(held, target, now);
        },
      };
    }
    case "rescue": {
      noOtherOptions(action, options, ["sshKey"]);
      const given = text(options, "sshKey", 16_384, false) ?? (node.sshSettings as { publicKey?: string } | undefined)?.publicKey;
      if (given === undefined) {
        throw new ValidationError("Action rescue needs options.sshKey (an OpenSSH public key), or a publicKey in the node's SSH settings");
      }
      const key = parseSshPublicKey(given);
      return { graph: "Graph.Lifecycle.Rescue", options: { "rescue-ssh": { sshKeyBase64: Buffer.from(key).toString("base64") } } };
    }
    case "unrescue":
      noOtherOptions(action, options, []);
      return { graph: "Graph.Lifecycle.Unrescue", options: {} };
    case "retire":
      noOtherOptions(action, options, []);
      return { graph: "Graph.Lifecycle.Retire", options: {} };
  }
}

export interface ActionResult {
  node: Node;
  workflow: Workflow;
}

export async function performAction(
  stores: ActionStores,
  identifier: string,
  request: ActionRequest,
  api: ApiContext,
  settings: ActionSettings,
  actor: Actor,
  now: Date,
): Promise<ActionResult> {
  const node = await findNode(stores, identifier);
  const from = stateOf(node);
  transitionFrom(from, request.action);
  ownerOnly(actor, node, request.action);
  const planned = await plan(stores, node, request, settings, actor);
  const running = await activeWorkflowOf(stores, node, now);
  if (running) {
    throw new ConflictError(
      `Node ${node.id} runs workflow ${running.injectableName} (${running.instanceId}): an action starts once it has ended, or once it is cancelled`,
    );
  }
  const operation = newUuid();
  const stamp = now.toISOString();
  // The conditional write: begin() checks the state again on the node as stored.
  const begun = await stores.nodes.update(
    node.id,
    (current) => ({ ...current, ...begin(current, request.action, operation, now, planned.changes), updatedAt: stamp }),
    node,
  );
  if (!begun) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  let workflow: Workflow;
  try {
    await planned.before?.(stores, begun, now);
    workflow = await startWorkflow(
      stores,
      node.id,
      { name: planned.graph, options: planned.options, lifecycle: { action: request.action, operation } },
      api,
      now,
    );
  } catch (error) {
    const before = { provisionState: from, provisioning: node.provisioning };
    await stores.nodes.update(node.id, (current) => {
      const back = undo(current, operation, before);
      return back ? { ...current, ...back, updatedAt: stamp } : current;
    });
    if (isDomainError(error) && error.message === ACTIVE_CONFLICT) {
      throw new ConflictError(`Node ${node.id} began running another workflow: try the action again once it has ended`);
    }
    throw error;
  }
  // The workflow's id on the node while it runs (an instant graph has already ended and moved it on).
  const moved = await stores.nodes.update(node.id, (current) =>
    current.provisioning?.operation === operation && current.provisioning.workflowId === undefined
      ? { ...current, provisioning: { ...current.provisioning, workflowId: workflow.instanceId } }
      : current,
  );
  return { node: moved ?? begun, workflow };
}

/** What GET /nodes/{identifier}/actions answers: the node's state, and each action with whether it may run now. */
export interface ActionList {
  node: string;
  provisionState: string;
  actions: { action: Action; allowed: boolean; from: readonly string[]; to: string; summary: string; destructive: boolean }[];
}

export async function listActions(stores: StoresOf<"lookups" | "nodes">, identifier: string): Promise<ActionList> {
  const node = await findNode(stores, identifier);
  const state = stateOf(node);
  const allowed = new Set(actionsFrom(state));
  return {
    node: node.id,
    provisionState: state,
    actions: (Object.keys(TRANSITIONS) as Action[]).map((action) => {
      const { from, to, summary, destructive } = TRANSITIONS[action];
      return { action, allowed: allowed.has(action), from, to, summary, destructive };
    }),
  };
}
