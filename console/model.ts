/** What the console reads from the provisioning API (RackHD 1.1 shapes, the fields it shows). */

export interface ObmSetting {
  service: string;
  config: Record<string, unknown>;
}

export interface MachineNode {
  id: string;
  name: string;
  identifiers: string[];
  type: string;
  obmSettings: ObmSetting[];
  sku: string | null;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  /** The site whose relays drive its BMC, and the power state a relay last read. */
  site?: string;
  power?: { state: "on" | "off"; readAt: string };
}

export interface Site {
  id: string;
  name: string;
  createdAt: string;
}

export interface RelayCredential {
  id: string;
  site: string;
  name: string;
  createdAt: string;
  lastSeenAt?: string;
  relayVersion?: string;
  online: boolean;
  token?: string;
}

export interface RelayJob {
  id: string;
  node: string;
  action: { kind: string; action?: string; device?: string; on?: boolean };
  requestedBy: string;
  state: "queued" | "leased" | "succeeded" | "failed";
  createdAt: string;
  result?: { ok: boolean; output: string; error?: string; at: string };
}

export type TaskState = "pending" | "running" | "succeeded" | "failed" | "cancelled" | "timeout";

export interface WorkflowTask {
  instanceId: string;
  label: string;
  injectableName: string;
  friendlyName: string;
  options: Record<string, unknown>;
  waitingOn: Record<string, string>;
  state: TaskState;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** When the machine fetched this task's boot profile. */
  bootedAt?: string;
  /** When the machine fetched this task's install script (kickstart, preseed, …). */
  templateFetchedAt?: string;
  error?: string;
}

export interface Workflow {
  id: string;
  instanceId: string;
  name: string;
  injectableName: string;
  _status: "running" | "succeeded" | "failed" | "cancelled" | "timeout";
  node?: string;
  tasks: Record<string, WorkflowTask>;
  createdAt: string;
  updatedAt: string;
}

export interface GraphDefinition {
  friendlyName: string;
  injectableName: string;
  options?: Record<string, Record<string, unknown>>;
  tasks: { label: string; taskName?: string; waitOn?: Record<string, string> }[];
}

export interface TaskDefinition {
  friendlyName: string;
  injectableName: string;
  options: Record<string, unknown>;
}

export interface Catalog {
  id: string;
  source: string;
  data: unknown;
  createdAt: string;
}

export interface Lookup {
  id: string;
  macAddress: string;
  ipAddress?: string;
  node?: string;
}

export interface Sku {
  id: string;
  name: string;
}

export interface ObmService {
  service: string;
  config: Record<string, { default?: unknown; type?: string }>;
}

export const isFinished = (workflow: Pick<Workflow, "_status">): boolean => workflow._status !== "running";
