import { ForbiddenError, isDomainError } from "../../errors";
import { isPlainObject } from "../../json";
import { tokenMatches } from "../bootToken";
import { newCatalogs } from "../catalogs/catalog";
import { recordAddress } from "../lookups/lookupService";
import { normalizeMac } from "../mac";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { assertRecordFits, fitsKey } from "../recordSize";
import { finishTask, runningTask } from "../workflowEngine/progress";
import type { Workflow, WorkflowTask } from "../workflowEngine/workflow";
import { activeWorkflowOf, settleEffects, type WorkflowStores } from "../workflows/workflowService";
import { type ParsedCatalog, parseCommandOutput, type SecureBootState } from "./catalogParsers";

/**
 * The microkernel protocol (RackHD §2.2): the small Linux that discovery boots asks
 * `GET /tasks/{node id}` for commands, runs them, and posts what they printed back to the same
 * path. Its first request ends the bootstrap task; each microkernel task hands out its commands
 * and ends with their results, which become catalogs.
 */

/** One command as the microkernel gets it. */
export interface Command {
  cmd: string;
  acceptedResponseCodes?: number[];
  /** Job.Linux.Commands: store this command's output as a catalog of that source and format. */
  catalog?: true;
  source?: string;
  format?: string;
  downloadUrl?: string;
}

/** A command with what running it gave (the microkernel posts the whole object back). */
export interface CommandResult {
  cmd: string;
  stdout?: string;
  stderr?: string;
  error?: unknown;
  acceptedResponseCodes?: unknown;
  [key: string]: unknown;
}

export interface CommandSet {
  identifier: string;
  tasks: Command[];
}

const SHELL_REBOOT = "Job.Linux.ShellReboot";
const LINUX_COMMANDS = "Job.Linux.Commands";

/** The commands a microkernel task hands out, from its options. */
export function commandsOf(task: WorkflowTask): Command[] {
  const listed = Array.isArray(task.options.commands) ? task.options.commands : [task.options.commands];
  return listed.flatMap((entry): Command[] => {
    if (typeof entry === "string") return [{ cmd: entry }];
    if (!isPlainObject(entry) || typeof entry.command !== "string") return [];
    const catalog = isPlainObject(entry.catalog) ? entry.catalog : undefined;
    return [
      {
        cmd: entry.command,
        ...(Array.isArray(entry.acceptedResponseCodes) && { acceptedResponseCodes: entry.acceptedResponseCodes.filter(Number.isInteger) }),
        ...(typeof entry.downloadUrl === "string" && { downloadUrl: entry.downloadUrl }),
        ...(catalog && {
          catalog: true as const,
          source: typeof catalog.source === "string" ? catalog.source : "unknown",
          format: typeof catalog.format === "string" ? catalog.format : "raw",
        }),
      },
    ];
  });
}

/** The microkernel's token (its kernel line and bootstrap.js carry it), and whether it must match (BOOT_TOKENS). */
export interface MicrokernelCaller {
  token: string | undefined;
  requireToken: boolean;
}

function checkCaller(caller: MicrokernelCaller, workflow: Workflow, node: Node): void {
  if (caller.requireToken && !tokenMatches(workflow.bootToken, caller.token)) {
    throw new ForbiddenError(`The boot token does not match the active workflow of node ${node.id}`);
  }
}

async function finish(
  stores: WorkflowStores,
  node: Node,
  workflow: Workflow,
  task: WorkflowTask,
  outcome: { state: "succeeded" | "failed"; error?: string },
  now: Date,
): Promise<Workflow> {
  const ended = await stores.workflows.update(
    workflow.instanceId,
    (stored) => finishTask(stored, task.instanceId, outcome, node.obmSettings, now),
    workflow,
  );
  return settleEffects(stores, ended ?? workflow, now);
}

/**
 * GET /tasks/{identifier}: the commands the node's microkernel is to run now, or undefined when it
 * has none (204). A running bootstrap ends here (the microkernel is up); the reboot command ends
 * its task as it is handed out (the machine reboots before it could answer). The commands of a
 * task are handed out again until its results arrive, so a lost answer costs nothing.
 */
export async function nextCommands(
  stores: WorkflowStores,
  identifier: string,
  caller: MicrokernelCaller,
  now: Date,
): Promise<CommandSet | undefined> {
  const node = await findNode(stores, identifier);
  let workflow = await activeWorkflowOf(stores, node, now);
  if (!workflow) return undefined;
  checkCaller(caller, workflow, node);
  const bootstrap = runningTask(workflow, "bootstrap");
  if (bootstrap) workflow = await finish(stores, node, workflow, bootstrap, { state: "succeeded" }, now);
  const task = workflow._status === "running" ? runningTask(workflow, "microkernel") : undefined;
  if (!task) return undefined;
  if (task.runJob === SHELL_REBOOT) await finish(stores, node, workflow, task, { state: "succeeded" }, now);
  return { identifier: node.id, tasks: commandsOf(task) };
}

/** More results than any command set hands out is not a result post. */
const MAX_RESULTS = 256;

/**
 * The command results in a posted body: its `tasks`, when that is a list of commands, each with
 * its `cmd`; nothing otherwise (RackHD answered 201 to any body and used what it could).
 */
export function resultsIn(body: unknown): CommandResult[] {
  const tasks = isPlainObject(body) ? body.tasks : undefined;
  if (!Array.isArray(tasks) || tasks.length > MAX_RESULTS) return [];
  return tasks.every((task) => isPlainObject(task) && typeof task.cmd === "string") ? (tasks as CommandResult[]) : [];
}

/**
 * POST /tasks/{identifier}: the results of the commands handed out. Results for no running task
 * of the node (an unknown node, a task already ended, another task's commands) change nothing,
 * and are answered as RackHD did (201, always).
 */
export async function acceptResults(
  stores: WorkflowStores,
  identifier: string,
  results: CommandResult[],
  caller: MicrokernelCaller,
  now: Date,
): Promise<void> {
  const node = fitsKey(identifier) ? await stores.nodes.find(identifier) : undefined;
  const workflow = node && (await activeWorkflowOf(stores, node, now));
  const task = workflow && runningTask(workflow, "microkernel");
  if (!node || !workflow || !task || task.runJob === SHELL_REBOOT) return;
  checkCaller(caller, workflow, node);
  const expected = commandsOf(task);
  // The microkernel stops at the first failing command: the results are a prefix of the commands.
  if (results.length === 0 || results.length > expected.length || results.some((result, i) => result.cmd !== expected[i].cmd)) return;
  const { catalogs, failure } = task.runJob === LINUX_COMMANDS ? commandResults(expected, results) : catalogResults(results);
  await stores.catalogs.add(newCatalogs(node.id, catalogs.filter(fits), now));
  // Every NIC lshw reports belongs to the node (RackHD's lookups from the lshw catalog), unless
  // another node holds that MAC: what a machine says of itself never moves another's (issue 35 §4).
  for (const mac of nicMacs(catalogs)) await recordAddress(stores, mac, node.id, undefined, now, "unclaimed");
  // Whether its firmware booted it with Secure Boot on (mokutil --sb-state), on the node itself.
  const secureBoot = catalogs.find((catalog) => catalog.source === "secure-boot")?.data as SecureBootState | undefined;
  if (secureBoot) {
    const reported = { state: secureBoot.secureBoot, reportedAt: now.toISOString() };
    await stores.nodes.update(node.id, (current) => ({ ...current, secureBoot: reported }));
  }
  await finish(stores, node, workflow, task, failure ? { state: "failed", error: failure } : { state: "succeeded" }, now);
}

/** The MACs of the network devices in lshw catalogs (`class: "network"`, the MAC as `serial`). */
export function nicMacs(catalogs: readonly ParsedCatalog[]): string[] {
  const macs = new Set<string>();
  const walk = (device: unknown, depth: number): void => {
    if (!isPlainObject(device) || depth > 32) return;
    const mac = device.class === "network" && typeof device.serial === "string" ? normalizeMac(device.serial) : undefined;
    if (mac) macs.add(mac);
    if (Array.isArray(device.children)) for (const child of device.children) walk(child, depth + 1);
  };
  for (const catalog of catalogs) if (catalog.source === "lshw") walk(catalog.data, 0);
  return [...macs];
}

/** A catalog larger than a record may be is left out (RackHD had no such bound; the other catalogs are kept). */
function fits(catalog: ParsedCatalog): boolean {
  try {
    assertRecordFits(catalog, "catalog");
    return true;
  } catch (error) {
    if (isDomainError(error)) return false;
    throw error;
  }
}

/** A command's exit code when it was found but could not run (POSIX shells' 126): its output says why. */
const COULD_NOT_RUN = 126;

/**
 * Job.Linux.Catalog: each command's output through its parser; what no parser reads is dropped.
 * The task succeeds (a machine without the device has nothing to catalog), unless a command could
 * not run (exit 126: a BMC, but no ipmitool): then it fails saying why, not "succeeded" with no catalog.
 */
function catalogResults(results: CommandResult[]): { catalogs: ParsedCatalog[]; failure?: string } {
  const catalogs = results.flatMap((result) => {
    const ran = exitCode(result.error) !== COULD_NOT_RUN;
    const parsed = ran && typeof result.stdout === "string" ? parseCommandOutput(result.cmd, result.stdout) : undefined;
    return parsed ? [parsed] : [];
  });
  const blocked = results.find((result) => exitCode(result.error) === COULD_NOT_RUN);
  const why = blocked && typeof blocked.stdout === "string" ? blocked.stdout.replace(/\s+/g, " ").trim().slice(0, 300) : "";
  return { catalogs, ...(blocked && { failure: `${blocked.cmd} could not run${why ? `: ${why}` : ""}` }) };
}

const exitCode = (error: unknown): number | undefined =>
  isPlainObject(error) && typeof error.code === "number" ? error.code : error === null || error === undefined ? undefined : Number.NaN;

/**
 * Job.Linux.Commands: fails when a command failed with a code it does not accept; commands marked
 * for cataloging store their output (`json` parsed, anything else as `{"data": stdout}`).
 */
function commandResults(expected: Command[], results: CommandResult[]): { catalogs: ParsedCatalog[]; failure?: string } {
  const failed = results.some((result, i) => {
    const code = exitCode(result.error);
    return code !== undefined && !(expected[i].acceptedResponseCodes ?? []).includes(code);
  });
  const catalogs = results.flatMap((result, i): ParsedCatalog[] => {
    const command = expected[i];
    if (!command.catalog || typeof result.stdout !== "string" || result.stdout === "") return [];
    if (command.format !== "json") return [{ source: command.source ?? "unknown", data: { data: result.stdout } }];
    try {
      return [{ source: command.source ?? "unknown", data: JSON.parse(result.stdout) }];
    } catch {
      return [];
    }
  });
  return { catalogs, ...(failed && { failure: "Encountered a failure running commands on node" }) };
}
