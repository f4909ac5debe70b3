import type { TaskKind } from "../graphs/baseTasks";
import { positionOf } from "../listPage";

/**
 * Why a workflow did not end well, from what the machine did (each step it took is kept on the
 * task that booted it: bootedAt, templateFetchedAt, installerStartedAt, installedAt). The words
 * tell an operator where to look: the network boot, the install script's URL, the installer's
 * logs, the installed system's first boot, the BMC.
 */
export const FAILURE_REASONS = [
  "never-booted",
  "no-install-script",
  "no-install-disk",
  "installer-silent",
  "installer-failed",
  "no-callback",
  "first-boot-silent",
  "first-boot-failed",
  "power-control-failed",
  "cancelled",
  "timed-out",
  "failed",
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** What a failed, timed-out or cancelled workflow's record says about why. */
export interface WorkflowFailure {
  reason: FailureReason;
  message: string;
  /** The task that ended it: its label and instance id. */
  task: string;
  taskId: string;
  at: string;
  /** Where the machine's timeline and the installer's logs are read (relative to the API's root). */
  timeline?: string;
}

export const TASK_TERMINAL_STATES = ["succeeded", "failed", "cancelled", "timeout"] as const;
export type TaskState = "pending" | "running" | (typeof TASK_TERMINAL_STATES)[number];
export type WorkflowStatus = "running" | "succeeded" | "failed" | "cancelled" | "timeout";

/** A task of a running graph, in RackHD's era-C record shape plus `kind` (how it runs here). */
export interface WorkflowTask {
  instanceId: string;
  label: string;
  name: string;
  injectableName: string;
  friendlyName: string;
  implementsTask: string;
  runJob: string;
  kind: TaskKind;
  options: Record<string, unknown>;
  properties: Record<string, unknown>;
  /** Dependencies: task instanceId → the state it waits for ("succeeded", "failed", "finished"). */
  waitingOn: Record<string, string>;
  ignoreFailure: boolean;
  state: TaskState;
  terminalOnStates: string[];
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** When the node fetched this task's boot profile. */
  bootedAt?: string;
  /** When the node first fetched this task's install script (its `installScript` template). */
  templateFetchedAt?: string;
  /** When the installer first reported (cloud-init's webhook format, reports/). */
  installerStartedAt?: string;
  /** When the installer reported that it finished writing the system. */
  installedAt?: string;
  /** When the installed system's cloud-init reported that its first boot finished. */
  firstBootAt?: string;
  /** Why it failed or timed out (failure.ts). */
  reason?: FailureReason;
  /** The relay job that runs this OBM task (its id), while a relay of the node's site drives the BMC. */
  relayJob?: string;
  error?: string;
}

/** A workflow (RackHD "graph object"), era-C shape. */
export interface Workflow {
  id: string;
  instanceId: string;
  name: string;
  injectableName: string;
  _status: WorkflowStatus;
  node: string;
  context: { target: string; graphId: string };
  definition: {
    friendlyName: string;
    injectableName: string;
    options: Record<string, unknown>;
    tasks: unknown[];
  };
  tasks: Record<string, WorkflowTask>;
  domain: string;
  /** Why it failed, timed out or was cancelled: the reason, the task, when, where the logs are. */
  failure?: WorkflowFailure;
  /** The user-data its install gives the installed system in place of the node's (the install task's `userData` option); never answered. */
  userData?: string;
  /**
   * The plain secrets an effect task writes where they are needed (the BMC password
   * create-obm-settings puts into the node's OBM setting), by task id: its options hold them
   * redacted. Never answered, and dropped when the task ends.
   */
  taskSecrets?: Record<string, Record<string, string>>;
  /** The token its boot requests must carry (BOOT_TOKENS=on); never answered. */
  bootToken?: string;
  /**
   * The node's life-cycle action it carries out (nodes/provisionState.ts): its end moves the node's
   * provision state, if the node still waits on this operation.
   */
  lifecycle?: { action: string; operation: string };
  /** The servers it was rendered for, so that a graph it starts (run-sku-graph) renders alike; never answered. */
  servers?: { api: string; files: string };
  createdAt: string;
  updatedAt: string;
}

/** The node of a graph run with no target (POST /workflows). */
export const NO_NODE = "";

/** RackHD's answer when a node already has an active workflow (every store enforces the rule). */
export const ACTIVE_CONFLICT = "Unable to run multiple task graphs against a single target.";

export const isTerminal = (state: TaskState): boolean => state !== "pending" && state !== "running";
export const isActive = (workflow: Pick<Workflow, "_status">): boolean => workflow._status === "running";

/** Byte estimate of a stored workflow, for the memory store's budget. */
export const workflowFootprint = (workflow: Workflow): number => 2 * JSON.stringify(workflow).length + 256;

/** A workflow's position in its lists (creation order, ties by instanceId; see listPage). */
export const workflowPosition = (workflow: Workflow): string => positionOf(workflow.createdAt, workflow.instanceId);
