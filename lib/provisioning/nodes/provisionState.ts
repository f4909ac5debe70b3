import { ConflictError } from "../../errors";
import type { FailureReason } from "../workflowEngine/workflow";

/**
 * A node's provision state (issue 53; Ironic's provision states, MAAS's node statuses, on RackHD's
 * workflows): where the machine is in its life, and which actions may move it on. Pure: no store,
 * no clock. An action moves a node from one of its `from` states into its `during` state while its
 * graph runs (a conditional write, so two actions never run at once), then into `to` when the graph
 * succeeds, or `failed` (with the step and the reason) when it does not.
 */

/** The states a node rests in: each waits for an operator's action. */
export const STABLE_STATES = ["discovered", "ready", "allocated", "deployed", "rescue", "failed", "retired"] as const;
/** The states a node is in while an action's graph runs. */
export const TRANSITIONAL_STATES = [
  "providing",
  "allocating",
  "deallocating",
  "deploying",
  "releasing",
  "rescuing",
  "unrescuing",
  "retiring",
] as const;
export const PROVISION_STATES = [...STABLE_STATES, ...TRANSITIONAL_STATES] as const;
export type StableState = (typeof STABLE_STATES)[number];
export type TransitionalState = (typeof TRANSITIONAL_STATES)[number];
export type ProvisionState = (typeof PROVISION_STATES)[number];

export const ACTIONS = ["provide", "allocate", "deallocate", "deploy", "redeploy", "release", "rescue", "unrescue", "retire"] as const;
export type Action = (typeof ACTIONS)[number];

export interface Transition {
  from: readonly StableState[];
  during: TransitionalState;
  to: StableState;
  /** What the action does, for the API's list of actions and the console's confirmation. */
  summary: string;
  /** Whether it touches the machine's disks or power: the console asks the operator to type the node's name. */
  destructive: boolean;
}

/** Every action: the states it starts from, the state while its graph runs, and where it ends. */
export const TRANSITIONS: Readonly<Record<Action, Transition>> = {
  provide: {
    from: ["discovered", "failed", "retired"],
    during: "providing",
    to: "ready",
    summary: "Check that the node is catalogued and has its BMC set, and make it ready for allocation",
    destructive: false,
  },
  allocate: {
    from: ["ready"],
    during: "allocating",
    to: "allocated",
    summary: "Give the node an owner and a purpose",
    destructive: false,
  },
  deallocate: {
    from: ["allocated"],
    during: "deallocating",
    to: "ready",
    summary: "Take the node back from its owner (it was never deployed)",
    destructive: false,
  },
  deploy: {
    from: ["ready", "allocated"],
    during: "deploying",
    to: "deployed",
    summary: "Install the node with an install graph",
    destructive: true,
  },
  redeploy: {
    from: ["deployed"],
    during: "deploying",
    to: "deployed",
    summary: "Install the node again (its last install graph unless another is named); the old install's credential ends at once",
    destructive: true,
  },
  release: {
    from: ["allocated", "deployed", "rescue", "failed"],
    during: "releasing",
    to: "ready",
    summary: "Erase every disk in the microkernel (quick or full), then make the node ready for its next owner",
    destructive: true,
  },
  rescue: {
    from: ["deployed", "failed"],
    during: "rescuing",
    to: "rescue",
    summary: "Boot the microkernel with SSH for the operator's key, touching no disk",
    destructive: false,
  },
  unrescue: {
    from: ["rescue"],
    during: "unrescuing",
    to: "deployed",
    summary: "Boot the node from its disk again",
    destructive: false,
  },
  retire: {
    from: ["discovered", "ready", "failed"],
    during: "retiring",
    to: "retired",
    summary: "Power the node off and take it out of service",
    destructive: false,
  },
};

/** A node's state when it has none recorded: nodes stored before provision states were. */
export const DEFAULT_STATE: StableState = "discovered";

export const isTransitional = (state: ProvisionState): state is TransitionalState =>
  (TRANSITIONAL_STATES as readonly string[]).includes(state);

/** Why the last action failed: the action, its workflow's failing step and the reason. */
export interface ProvisionError {
  action: Action;
  workflowId: string;
  task: string;
  reason: FailureReason;
  message: string;
  at: string;
}

/** What a node records of its life beside its state. */
export interface Provisioning {
  /** The action running or last run, its operation (the workflow carries it too) and its workflow. */
  action?: Action;
  operation?: string;
  workflowId?: string;
  /** When the state last changed. */
  updatedAt: string;
  /** Who holds the node and for what (allocate); kept while deployed, cleared by release and deallocate. */
  owner?: string;
  purpose?: string;
  /** The install graph and its options the node was deployed with: what redeploy runs again. */
  deploy?: { graph: string; options: Record<string, unknown> };
  lastError?: ProvisionError;
}

/** What an action's workflow carries, so that its end moves the node (and only the action that started it). */
export interface WorkflowLifecycle {
  action: string;
  operation: string;
}

export const isAction = (value: unknown): value is Action => (ACTIONS as readonly unknown[]).includes(value);

/** The node's state, `discovered` for one stored before states were. */
export function stateOf(node: { provisionState?: unknown }): ProvisionState {
  const state = node.provisionState;
  return (PROVISION_STATES as readonly unknown[]).includes(state) ? (state as ProvisionState) : DEFAULT_STATE;
}

/** The actions a node in `state` may take now. */
export const actionsFrom = (state: ProvisionState): Action[] =>
  ACTIONS.filter((action) => TRANSITIONS[action].from.includes(state as StableState));

/** The transition of `action` from `state`, or a ConflictError (409) naming both and what is allowed. */
export function transitionFrom(state: ProvisionState, action: Action): Transition {
  const transition = TRANSITIONS[action];
  if (transition.from.includes(state as StableState)) return transition;
  const allowed = actionsFrom(state);
  throw new ConflictError(
    `Action ${action} is not allowed while the node is ${state}: ${action} starts from ${transition.from.join(", ")}` +
      (isTransitional(state)
        ? "; wait for the running action to end, or cancel its workflow"
        : // Every stable state allows some action (a test holds the table).
          `; from ${state}: ${allowed.join(", ")}`),
  );
}

export interface Begun {
  provisionState: TransitionalState;
  provisioning: Provisioning;
}

/** The node's state and record as `action` begins (checked against the node's current state: call it inside the conditional write). */
export function begin(
  current: { provisionState?: unknown; provisioning?: Provisioning },
  action: Action,
  operation: string,
  at: Date,
  changes: Partial<Provisioning> = {},
): Begun {
  const transition = transitionFrom(stateOf(current), action);
  const { lastError: _ended, ...kept } = current.provisioning ?? { updatedAt: at.toISOString() };
  return {
    provisionState: transition.during,
    provisioning: { ...kept, ...changes, action, operation, workflowId: undefined, updatedAt: at.toISOString() },
  };
}

/** How an action's workflow ended, as the node's state sees it. */
export interface ActionEnd {
  status: "succeeded" | "failed" | "cancelled" | "timeout";
  workflowId: string;
  failure?: { task: string; reason: FailureReason; message: string };
}

/**
 * The node's state and record once its action's workflow has ended; undefined when the node is not
 * waiting on that operation (another action's, or already moved on: a second call changes nothing).
 */
export function end(
  current: { provisionState?: unknown; provisioning?: Provisioning },
  lifecycle: WorkflowLifecycle,
  outcome: ActionEnd,
  at: Date,
): { provisionState: StableState; provisioning: Provisioning } | undefined {
  const state = stateOf(current);
  const record = current.provisioning;
  const action = lifecycle.action;
  if (!isTransitional(state) || record?.operation !== lifecycle.operation || !isAction(action)) return undefined;
  const stamp = at.toISOString();
  const base = { ...record, workflowId: outcome.workflowId, updatedAt: stamp };
  if (outcome.status === "succeeded") {
    const to = TRANSITIONS[action].to;
    // Release and deallocate hand the node back: its owner, purpose and install go with them.
    if (to === "ready") {
      const { owner: _owner, purpose: _purpose, deploy: _deploy, ...rest } = base;
      return { provisionState: to, provisioning: rest };
    }
    return { provisionState: to, provisioning: base };
  }
  const failure = outcome.failure ?? { task: "", reason: outcome.status === "cancelled" ? "cancelled" : "failed", message: outcome.status };
  return {
    provisionState: "failed",
    provisioning: { ...base, lastError: { action, workflowId: outcome.workflowId, ...failure, at: stamp } },
  };
}

/**
 * Undoes `begin` when the action's graph could not start (no graph, a bad option, a workflow the
 * node already runs): the node returns to the state it was in, if it is still this operation's.
 */
export function undo(
  current: { provisionState?: unknown; provisioning?: Provisioning },
  operation: string,
  before: { provisionState: ProvisionState; provisioning?: Provisioning },
): { provisionState: ProvisionState; provisioning?: Provisioning } | undefined {
  return current.provisioning?.operation === operation && isTransitional(stateOf(current)) ? before : undefined;
}
