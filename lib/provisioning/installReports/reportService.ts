import { NotFoundError, PayloadTooLargeError, ValidationError } from "../../errors";
import type { InstanceRecord } from "../cloudInit/instance";
import { instanceOf } from "../cloudInit/instanceService";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { updateOrCreate } from "../recordStore";
import { waitingInstallTask } from "../workflowEngine/progress";
import type { Workflow } from "../workflowEngine/workflow";
import { activeWorkflowOf, settleEffects, type WorkflowStores } from "../workflows/workflowService";
import { applyMachineEvent } from "./installProgress";
import { type InstallReport, LOG_NAME, type LogChunk, type MachineEvent, REPORT_LIMITS } from "./installReport";
import { type PostedFile, parseMachineEvent } from "./machineEvent";
import { keepReportedAddresses } from "./reportedAddresses";

const DAY_MS = 24 * 60 * 60 * 1000;

const freshReport = (node: Node, instance: InstanceRecord, now: Date): InstallReport => ({
  id: node.id,
  instanceId: instance.instanceId,
  events: [],
  logs: [],
  expiresAt: new Date(now.getTime() + REPORT_LIMITS.keepDays * DAY_MS).toISOString(),
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

/** The report of the machine's current install: a report of an install before, or one expired, counts as none. */
const isCurrent = (report: InstallReport | undefined, instance: InstanceRecord, now: Date): report is InstallReport =>
  report !== undefined && report.instanceId === instance.instanceId && Date.parse(report.expiresAt) > now.getTime();

/** Applies `change` to the current install's report, starting one when there is none. */
const changeReport = (
  stores: StoresOf<"installReports">,
  node: Node,
  instance: InstanceRecord,
  now: Date,
  change: (report: InstallReport) => InstallReport,
) =>
  updateOrCreate(
    stores.installReports,
    node.id,
    (current) => change(isCurrent(current, instance, now) ? current : freshReport(node, instance, now)),
    () => freshReport(node, instance, now),
  );

const logBytes = (report: InstallReport): number => report.logs.reduce((sum, chunk) => sum + chunk.bytes, 0);

/** The chunk `name`/`seq` added to the report, within its bounds (413 otherwise). */
function withChunk(report: InstallReport, chunk: LogChunk): InstallReport {
  if (report.logs.some((kept) => kept.name === chunk.name && kept.seq === chunk.seq)) return report;
  if (report.logs.length >= REPORT_LIMITS.logChunks) {
    throw new PayloadTooLargeError(`This install has sent its ${REPORT_LIMITS.logChunks} log chunks; no more are kept`);
  }
  if (logBytes(report) + chunk.bytes > REPORT_LIMITS.totalLogBytes) {
    throw new PayloadTooLargeError(`This install's logs would pass ${REPORT_LIMITS.totalLogBytes} bytes; no more are kept`);
  }
  return { ...report, logs: [...report.logs, chunk], updatedAt: chunk.at };
}

const keyOf = (node: Node, instance: InstanceRecord, name: string, seq: number): string =>
  `${node.id}/${instance.instanceId}/${name}/${seq}`;

/** A posted file's log name: its base name, in the letters a log name may hold. */
const logNameOf = (path: string): string => {
  const base = path.split("/").pop() ?? "";
  const name = base
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64);
  return name === "" ? "file" : name;
};

/** The event kept, then what it does to the machine's waiting install task (installProgress.ts). */
async function applyToWorkflow(stores: WorkflowStores, node: Node, event: MachineEvent, now: Date): Promise<Workflow | undefined> {
  const workflow = await activeWorkflowOf(stores, node, now);
  const task = workflow && waitingInstallTask(workflow);
  if (!workflow || !task) return workflow;
  const change = (current: Workflow) => applyMachineEvent(current, task.instanceId, event, node.obmSettings, now);
  if (change(workflow) === workflow) return workflow;
  const stored = await stores.workflows.update(workflow.instanceId, change, workflow);
  return stored && settleEffects(stores, stored, now);
}

/**
 * The event added to the report. A full report keeps its first events (how the install began)
 * and drops the oldest after them, so the last ones (how it ended, a failure) are always kept.
 */
function withEvent(report: InstallReport, event: MachineEvent): InstallReport {
  const events = [...report.events, event];
  if (events.length <= REPORT_LIMITS.events) return { ...report, events };
  events.splice(REPORT_LIMITS.eventsKeptFirst, 1);
  return { ...report, events, eventsDropped: (report.eventsDropped ?? 0) + 1 };
}

/** What a report's answer says: it was kept, and the workflow's status after it. */
export interface ReportReceipt {
  accepted: true;
  events: number;
  workflow?: { id: string; status: string };
}

/**
 * POST /reports/{credential}: one event from the machine holding the credential, in cloud-init's
 * webhook format. Kept in its install's report (bounded: see withEvent), its
 * files kept as logs, and applied to its waiting install task. A wrong credential is a 404 and
 * changes nothing.
 */
export async function acceptEvent(
  stores: WorkflowStores & StoresOf<"installReports" | "instances" | "logBlobs">,
  credential: string,
  body: unknown,
  now: Date,
): Promise<ReportReceipt> {
  const { event, files, addresses } = parseMachineEvent(body, now);
  const { record: instance, node } = await instanceOf(stores, credential);
  const report = await changeReport(stores, node, instance, now, (current) => ({ ...withEvent(current, event), updatedAt: event.at }));
  for (const file of files) await keepPostedFile(stores, node, instance, file, now);
  if (addresses) await keepReportedAddresses(stores, node, addresses, now);
  const workflow = await applyToWorkflow(stores, node, event, now);
  return { accepted: true, events: report.events.length, ...(workflow && { workflow: { id: workflow.id, status: workflow._status } }) };
}

/** A file an event carried, as the next chunk of the log named after it. */
async function keepPostedFile(
  stores: StoresOf<"installReports" | "logBlobs">,
  node: Node,
  instance: InstanceRecord,
  file: PostedFile,
  now: Date,
): Promise<void> {
  const name = logNameOf(file.path);
  const current = await stores.installReports.get(node.id);
  const kept = isCurrent(current, instance, now) ? current : undefined;
  const seq = (kept?.logs.filter((chunk) => chunk.name === name).length ?? 0) + 1;
  await putChunk(stores, node, instance, { name, seq, bytes: file.bytes, kept }, now);
}

/**
 * Throws (413) if `chunk` would pass the bounds of the report as last read: checked before any
 * bytes are written, and again as the index is (withChunk), so a chunk past them writes nothing.
 */
const checkFits = (kept: InstallReport | undefined, chunk: LogChunk): void => {
  if (kept) withChunk(kept, chunk);
};

/** A chunk to keep, with the current install's report as the caller read it (none: no report yet). */
interface ChunkToKeep {
  name: string;
  seq: number;
  kept: InstallReport | undefined;
}

async function putChunk(
  stores: StoresOf<"installReports" | "logBlobs">,
  node: Node,
  instance: InstanceRecord,
  { name, seq, bytes, kept }: ChunkToKeep & { bytes: Buffer },
  now: Date,
) {
  if (bytes.length > REPORT_LIMITS.inlineChunkBytes) {
    throw new PayloadTooLargeError(
      `A log chunk in a request is at most ${REPORT_LIMITS.inlineChunkBytes} bytes: announce a larger one with ?size=`,
    );
  }
  const chunk: LogChunk = { name, seq, bytes: bytes.length, key: keyOf(node, instance, name, seq), at: now.toISOString() };
  checkFits(kept, chunk);
  await stores.logBlobs.put(chunk.key, bytes);
  await changeReport(stores, node, instance, now, (current) => withChunk(current, chunk));
}

/** What a log chunk's answer says: kept (or already kept), or where to upload a large one. */
export type ChunkReceipt = { name: string; seq: number; bytes: number; duplicate: boolean } | { uploadUrl: string; expiresIn: number };

const UPLOAD_URL_SECONDS = 900;

/**
 * POST /reports/{credential}/logs/{name}?seq=N: one chunk of a log (text, at most 256 KiB), or with
 * `?size=` and no body, a presigned URL to PUT a larger one to (307). Each (name, seq) is accepted
 * once: sending it again changes nothing and says `duplicate`.
 */
export async function acceptLogChunk(
  stores: StoresOf<"installReports" | "instances" | "logBlobs" | "nodes" | "workflows">,
  credential: string,
  request: { name: string; seq: number; size?: number; body?: Buffer },
  now: Date,
): Promise<ChunkReceipt> {
  if (!LOG_NAME.test(request.name))
    throw new ValidationError("A log's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
  const { record: instance, node } = await instanceOf(stores, credential);
  const current = await stores.installReports.get(node.id);
  const kept = isCurrent(current, instance, now) ? current : undefined;
  const same = kept?.logs.find((chunk) => chunk.name === request.name && chunk.seq === request.seq);
  if (same) return { name: same.name, seq: same.seq, bytes: same.bytes, duplicate: true };
  const target = { name: request.name, seq: request.seq, kept };
  if (request.body === undefined || request.body.length === 0) {
    if (request.size === undefined)
      throw new ValidationError("A log chunk has a body, or announces its size with ?size= for a presigned upload");
    return announceChunk(stores, node, instance, { ...target, size: request.size }, now);
  }
  await putChunk(stores, node, instance, { ...target, bytes: request.body }, now);
  return { name: request.name, seq: request.seq, bytes: request.body.length, duplicate: false };
}

async function announceChunk(
  stores: StoresOf<"installReports" | "logBlobs">,
  node: Node,
  instance: InstanceRecord,
  { name, seq, size, kept }: ChunkToKeep & { size: number },
  now: Date,
) {
  if (size > REPORT_LIMITS.chunkBytes) throw new PayloadTooLargeError(`A log chunk is at most ${REPORT_LIMITS.chunkBytes} bytes`);
  const chunk: LogChunk = { name, seq, bytes: size, key: keyOf(node, instance, name, seq), at: now.toISOString(), pending: true };
  checkFits(kept, chunk);
  const uploadUrl = await stores.logBlobs.uploadUrl(chunk.key, size, UPLOAD_URL_SECONDS);
  if (!uploadUrl) {
    throw new PayloadTooLargeError(
      `This store takes log chunks in the request only: send pieces of at most ${REPORT_LIMITS.inlineChunkBytes} bytes`,
    );
  }
  await changeReport(stores, node, instance, now, (current) => withChunk(current, chunk));
  return { uploadUrl, expiresIn: UPLOAD_URL_SECONDS };
}

/** The node's current install report: one of its current instance (not an install before) that has not expired. */
export async function currentReport(
  stores: StoresOf<"installReports" | "instances">,
  node: Node,
  now: Date,
): Promise<InstallReport | undefined> {
  const [report, instance] = await Promise.all([stores.installReports.get(node.id), stores.instances.get(node.id)]);
  return instance && isCurrent(report, instance, now) ? report : undefined;
}

/** One log of the node's current install: its chunks in order, joined (413 past what one answer carries: read it by ?seq=). */
export async function readInstallLog(
  stores: StoresOf<"installReports" | "instances" | "logBlobs">,
  node: Node,
  name: string,
  seq: number | undefined,
  now: Date,
): Promise<Buffer> {
  const report = await currentReport(stores, node, now);
  const chunks = (report?.logs ?? [])
    .filter((chunk) => chunk.name === name && (seq === undefined || chunk.seq === seq))
    .sort((a, b) => a.seq - b.seq);
  if (chunks.length === 0) throw new NotFoundError(`No log ${name}${seq === undefined ? "" : ` part ${seq}`} for node ${node.id}`);
  if (chunks.reduce((sum, chunk) => sum + chunk.bytes, 0) > stores.logBlobs.inlineMaxBytes) {
    throw new PayloadTooLargeError(`The log ${name} is larger than one answer carries: read it part by part with ?seq=`);
  }
  // A part is answered at most as long as it was announced, whatever reached the store (issue 35 §11).
  const parts = await Promise.all(chunks.map(async (chunk) => (await stores.logBlobs.get(chunk.key))?.subarray(0, chunk.bytes)));
  return Buffer.concat(parts.filter((part): part is Buffer => part !== undefined));
}
