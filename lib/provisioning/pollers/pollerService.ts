import { isDomainError, NotFoundError, ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { orderedId } from "../ids";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { NOOP_OBM_SERVICE } from "../obmServices/obmLibrary";
import type { ObmSetting } from "../obmServices/obmSetting";
import type { StoresOf } from "../ports";
import { matchesFilters } from "../queryFilters";
import { assertRecordFits, fitsKey } from "../recordSize";
import { updateOrCreate } from "../recordStore";
import { enqueueJob } from "../relays/jobService";
import { keepRedactedSecrets, redact } from "../secrets";
import { IPMI_POLL_COMMANDS, type IpmiPollCommand, ipmiSample } from "./ipmiSamples";
import {
  DEFAULT_IPMI_POLLERS,
  POLLER_LIBRARY,
  POLLER_NAMES,
  type PollerRecord,
  type PollerSamples,
  type PollerType,
  presentPoller,
  SAMPLES_KEPT,
} from "./poller";
import { REDFISH_POLL_COMMANDS, type RedfishPollCommand, redfishSample } from "./redfishSamples";

type PollCommand = IpmiPollCommand | RedfishPollCommand;

const notFound = (id: string) => new NotFoundError(`Could not find workitem with identifier ${id}`);
const noSamples = (id: string) =>
  new NotFoundError(`There is no cache record for the poller with ID ${id}.Perhaps it has not been run yet?`);

export const pollerLibrary = () => POLLER_LIBRARY;

/** GET /pollers/library/{name}: undefined for an unknown name (RackHD's 204). */
export const pollerLibraryEntry = (name: string) => POLLER_LIBRARY.find((entry) => entry.name === name);

interface PollerFields {
  name?: PollerRecord["name"];
  node?: string | null;
  config?: Record<string, unknown>;
  pollInterval?: number;
  paused?: boolean;
}

/** RackHD's deserializer: `type` (or `name`) → name; only name, node, config, pollInterval, paused are kept. */
function pollerFields(body: Record<string, unknown>, partial: boolean): PollerFields {
  const fields: PollerFields = {};
  const type = body.type ?? (typeof body.name === "string" ? body.name.replace(/^Pollers\./, "").toLowerCase() : undefined);
  if (type !== undefined || !partial) {
    if (typeof type !== "string" || !Object.hasOwn(POLLER_NAMES, type))
      throw new ValidationError("type must be one of ipmi, snmp, redfish");
    fields.name = POLLER_NAMES[type as PollerType];
  }
  if (body.pollInterval !== undefined || !partial) {
    const interval = body.pollInterval;
    if (typeof interval !== "number" || !Number.isSafeInteger(interval) || interval < 1) {
      throw new ValidationError("pollInterval (integer, milliseconds) is required");
    }
    fields.pollInterval = interval;
  }
  if (body.node !== undefined) {
    if (body.node !== null && typeof body.node !== "string") throw new ValidationError("node must be a node id or null");
    fields.node = body.node;
  }
  if (body.config !== undefined) {
    if (!isPlainObject(body.config)) throw new ValidationError("config must be an object");
    fields.config = body.config;
  }
  if (body.paused !== undefined) {
    if (typeof body.paused !== "boolean") throw new ValidationError("paused must be true or false");
    fields.paused = body.paused;
  }
  return fields;
}

export async function listPollers(stores: StoresOf<"pollers">, filters: Record<string, string[]>): Promise<Record<string, unknown>[]> {
  return (await stores.pollers.list()).map(presentPoller).filter((poller) => matchesFilters(poller, filters));
}

export async function getPoller(stores: StoresOf<"pollers">, id: string): Promise<PollerRecord> {
  const poller = fitsKey(id) ? await stores.pollers.get(id) : undefined;
  if (!poller) throw notFound(id);
  return poller;
}

/** POST /pollers → 200 (RackHD); due at once. */
export async function createPoller(stores: StoresOf<"pollers">, body: Record<string, unknown>, now: Date): Promise<PollerRecord> {
  const fields = pollerFields(body, false);
  return stores.pollers.create(newPoller(fields as Required<Pick<PollerFields, "name" | "pollInterval">> & PollerFields, now));
}

function newPoller(fields: Required<Pick<PollerFields, "name" | "pollInterval">> & PollerFields, now: Date, place = 0): PollerRecord {
  const stamp = now.toISOString();
  const poller: PollerRecord = {
    id: orderedId(now, place),
    name: fields.name,
    node: fields.node ?? null,
    config: fields.config ?? {},
    pollInterval: fields.pollInterval,
    nextScheduled: stamp,
    lastStarted: null,
    lastFinished: null,
    leaseToken: null,
    leaseExpires: null,
    failureCount: 0,
    paused: fields.paused ?? false,
    createdAt: stamp,
    updatedAt: stamp,
  };
  assertRecordFits(poller, "poller");
  return poller;
}

export async function patchPoller(
  stores: StoresOf<"pollers">,
  id: string,
  body: Record<string, unknown>,
  now: Date,
): Promise<PollerRecord> {
  await getPoller(stores, id);
  const fields = pollerFields(body, true);
  const updated = await stores.pollers.update(id, (current) => {
    // A config echoed back as it was answered keeps its stored secrets, not the word REDACTED.
    const config =
      fields.config === undefined ? current.config : (keepRedactedSecrets(fields.config, current.config) as Record<string, unknown>);
    const next = { ...current, ...fields, ...(fields.config !== undefined && { config }), updatedAt: now.toISOString() };
    assertRecordFits(next, "poller");
    return next;
  });
  if (!updated) throw notFound(id);
  return updated;
}

/** PATCH /pollers/{id}/pause and /resume (RackHD): `paused` set, no body; 200 with the poller, 404 unknown. */
export async function setPollerPaused(stores: StoresOf<"pollers">, id: string, paused: boolean, now: Date): Promise<PollerRecord> {
  const updated = fitsKey(id)
    ? await stores.pollers.update(id, (current) =>
        current.paused === paused ? current : { ...current, paused, updatedAt: now.toISOString() },
      )
    : undefined;
  if (!updated) throw notFound(id);
  return updated;
}

/** DELETE /pollers/{id} → 204; its samples go with it. */
export async function deletePoller(stores: StoresOf<"pollerSamples" | "pollers">, id: string): Promise<void> {
  if (!(fitsKey(id) && (await stores.pollers.delete(id)))) throw notFound(id);
  await stores.pollerSamples.delete(id);
}

/**
 * GET /pollers/{id}/data: its samples, oldest first, after running it if it is due (a read
 * brings it up to date, as a workflow's; the scheduled function runs it otherwise). 404 with
 * RackHD's text until it has one.
 */
export async function pollerData(
  stores: StoresOf<"nodes" | "pollerSamples" | "pollers" | "relayJobs">,
  id: string,
  now: Date,
): Promise<Record<string, unknown>[]> {
  const poller = fitsKey(id) ? await stores.pollers.get(id) : undefined;
  if (!poller) throw noSamples(id);
  if (isDue(poller, now)) await runPoller(stores, poller, now);
  const samples = (await stores.pollerSamples.get(id))?.samples ?? [];
  if (samples.length === 0) throw noSamples(id);
  return samples;
}

/** GET /pollers/{id}/data/current (RackHD): the newest sample alone, in a one-element array; 404 as /data. */
export async function currentPollerData(
  stores: StoresOf<"nodes" | "pollerSamples" | "pollers" | "relayJobs">,
  id: string,
  now: Date,
): Promise<Record<string, unknown>[]> {
  return (await pollerData(stores, id, now)).slice(-1);
}

/** GET /nodes/{id}/pollers: the node's pollers as stored (RackHD: raw work items, `name`, no `type`). */
export async function nodePollers(stores: StoresOf<"lookups" | "nodes" | "pollers">, identifier: string): Promise<PollerRecord[]> {
  return (await pollersOf(stores, (await findNode(stores, identifier)).id)).map((poller) => ({ ...poller, config: redact(poller.config) }));
}

/** A node's pollers (one read of the poller partition). */
const pollersOf = async (stores: StoresOf<"pollers">, nodeId: string): Promise<PollerRecord[]> =>
  (await stores.pollers.list()).filter((poller) => poller.node === nodeId);

/** The node is deleted: its pollers and their samples go with it (RackHD). */
export async function removeNodePollers(stores: StoresOf<"pollerSamples" | "pollers">, nodeId: string): Promise<void> {
  for (const poller of await pollersOf(stores, nodeId)) {
    await stores.pollers.delete(poller.id);
    await stores.pollerSamples.delete(poller.id);
  }
}

export const isDue = (poller: PollerRecord, now: Date): boolean =>
  !poller.paused && (poller.nextScheduled === null || Date.parse(poller.nextScheduled) <= now.getTime());

/** The scheduled function: every poller that is due runs once. Answers how many ran. */
export async function runDuePollers(stores: StoresOf<"nodes" | "pollerSamples" | "pollers" | "relayJobs">, now: Date): Promise<number> {
  const due = (await stores.pollers.list()).filter((poller) => isDue(poller, now));
  for (const poller of due) await runPoller(stores, poller, now);
  return due.length;
}

/**
 * Runs a poller once: asks its node's OBM service. With `noop-obm-service` the answer is empty
 * (a noop controller has nothing to report), stored as a sample with RackHD's keys; a service this
 * function cannot reach (a BMC, an SNMP agent) counts a failure and says why. Either way the next
 * run is one interval later.
 */
export async function runPoller(
  stores: StoresOf<"nodes" | "pollerSamples" | "pollers" | "relayJobs">,
  poller: PollerRecord,
  now: Date,
): Promise<void> {
  const node = poller.node ? await stores.nodes.get(poller.node) : undefined;
  const stamp = now.toISOString();
  const next = new Date(now.getTime() + poller.pollInterval).toISOString();
  const relayed = node ? relayObm(node, poller) : undefined;
  if (relayed && node) {
    // A site's relay runs it; its result comes back as a sample (recordPollResult).
    const outcome = await queuePoll(stores, poller, node, relayed, now);
    await stores.pollers.update(poller.id, (current) => ({
      ...current,
      lastStarted: stamp,
      nextScheduled: next,
      ...(outcome.ok ? {} : { failureCount: current.failureCount + 1, lastError: outcome.error, lastFinished: stamp }),
      updatedAt: stamp,
    }));
    return;
  }
  const outcome = sample(poller, node, now);
  await stores.pollers.update(poller.id, (current) => ({
    ...current,
    lastStarted: stamp,
    lastFinished: stamp,
    nextScheduled: next,
    failureCount: outcome.ok ? current.failureCount : current.failureCount + 1,
    ...(outcome.ok ? { lastError: undefined } : { lastError: outcome.error }),
    updatedAt: stamp,
  }));
  if (!outcome.ok) return;
  const keep = (record: PollerSamples): PollerSamples => ({
    ...record,
    samples: [...record.samples, outcome.sample].slice(-SAMPLES_KEPT),
    updatedAt: stamp,
  });
  await updateOrCreate(stores.pollerSamples, poller.id, keep, () => ({ id: poller.id, samples: [], createdAt: stamp, updatedAt: stamp }));
}

type Outcome = { ok: true; sample: Record<string, unknown> } | { ok: false; error: string };

/** The OBM service a relay drives for each kind of poller. */
const RELAY_SERVICE: Partial<Record<PollerRecord["name"], string>> = {
  [POLLER_NAMES.ipmi]: "ipmi-obm-service",
  [POLLER_NAMES.redfish]: "redfish-obm-service",
};

/** The node's OBM setting a relay drives for this poller (IPMI or Redfish), if it has one. */
const relayObm = (node: Node, poller: PollerRecord) => node.obmSettings.find((setting) => setting.service === RELAY_SERVICE[poller.name]);

/** The poller's command: its config's, if its kind has it; else the kind's first (sdr, powerState). */
const commandOf = (poller: PollerRecord): PollCommand => {
  const command = poller.config.command;
  const commands: readonly string[] = poller.name === POLLER_NAMES.redfish ? REDFISH_POLL_COMMANDS : IPMI_POLL_COMMANDS;
  return (commands.includes(command as string) ? command : commands[0]) as PollCommand;
};

async function queuePoll(
  stores: StoresOf<"relayJobs">,
  poller: PollerRecord,
  node: Node,
  obm: ObmSetting,
  now: Date,
): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    const action = { kind: "poll" as const, command: commandOf(poller), poller: poller.id };
    await enqueueJob(stores, { id: `poll-${poller.id}-${now.getTime()}`, node, obm, action, requestedBy: `poller ${poller.id}` }, now);
    return { ok: true };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { ok: false, error: error.message };
  }
}

/**
 * A relay's result for a poller's run: a sample in RackHD's shape under the command's name (with
 * RackHD's host, user, node and timestamp keys), or a failure counted with the BMC's words.
 */
export async function recordPollResult(
  stores: StoresOf<"nodes" | "pollerSamples" | "pollers">,
  pollerId: string,
  command: PollCommand,
  result: { ok: boolean; output: string; error?: string },
  now: Date,
): Promise<unknown> {
  const poller = await stores.pollers.get(pollerId);
  if (!poller) return undefined;
  const stamp = now.toISOString();
  await stores.pollers.update(poller.id, (current) => ({
    ...current,
    lastFinished: stamp,
    failureCount: result.ok ? current.failureCount : current.failureCount + 1,
    ...(result.ok ? { lastError: undefined } : { lastError: result.error ?? "failed" }),
    updatedAt: stamp,
  }));
  if (!result.ok) return undefined;
  const redfish = (REDFISH_POLL_COMMANDS as readonly string[]).includes(command);
  const value = redfish
    ? redfishSample(command as RedfishPollCommand, result.output)
    : ipmiSample(command as IpmiPollCommand, result.output);
  const obm = poller.node
    ? (await stores.nodes.get(poller.node))?.obmSettings.find((s) => s.service === RELAY_SERVICE[poller.name])
    : undefined;
  const host = obm?.config.host ?? obm?.config.uri;
  const entry = { [command]: value, host: host ?? null, user: null, node: poller.node, timestamp: now.toString() };
  const keep = (record: PollerSamples): PollerSamples => ({
    ...record,
    samples: [...record.samples, entry].slice(-SAMPLES_KEPT),
    updatedAt: stamp,
  });
  await updateOrCreate(stores.pollerSamples, poller.id, keep, () => ({ id: poller.id, samples: [], createdAt: stamp, updatedAt: stamp }));
  return value;
}

const EMPTY_IPMI: Record<string, unknown> = { sdr: [], sel: [], selInformation: {}, chassis: {}, driveHealth: [] };

function sample(poller: PollerRecord, node: Node | undefined, now: Date): Outcome {
  if (poller.name !== POLLER_NAMES.ipmi) {
    return { ok: false, error: `${poller.name} needs a reachable agent, which a Lambda function cannot poll` };
  }
  if (!node) return { ok: false, error: `The poller's node ${poller.node ?? "(none)"} does not exist` };
  const services = node.obmSettings.map((setting) => setting.service);
  if (!services.includes(NOOP_OBM_SERVICE)) {
    return {
      ok: false,
      error: `IPMI polling needs ${NOOP_OBM_SERVICE} here: a Lambda function cannot reach a BMC (${services.join(", ") || "no OBM service"})`,
    };
  }
  const command = typeof poller.config.command === "string" ? poller.config.command : "sdr";
  return {
    ok: true,
    sample: {
      [command]: Object.hasOwn(EMPTY_IPMI, command) ? EMPTY_IPMI[command] : {},
      host: null,
      user: null,
      node: node.id,
      timestamp: now.toString(),
    },
  };
}

/**
 * RackHD's create-default-pollers: the five IPMI pollers, for a node with a `bmc` catalog only,
 * once (a node that has them gets no second set).
 */
export async function createDefaultPollers(stores: StoresOf<"catalogs" | "pollers">, node: Node, now: Date): Promise<void> {
  if (!(await stores.catalogs.latest(node.id, "bmc"))) return;
  const existing = new Set((await pollersOf(stores, node.id)).map((poller) => String(poller.config.command)));
  let place = 0;
  for (const [command, pollInterval] of DEFAULT_IPMI_POLLERS) {
    if (existing.has(command)) continue;
    await stores.pollers.create(newPoller({ name: POLLER_NAMES.ipmi, node: node.id, pollInterval, config: { command } }, now, place++));
  }
}
