import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { EVENT_RESULTS, EVENT_TYPES, type MachineEvent, REPORT_LIMITS } from "./installReport";
import { parseReportedNics, type ReportedNic } from "./reportedAddresses";

/** A file a webhook event carries (cloud-init's `post_files`): its path and its bytes. */
export interface PostedFile {
  path: string;
  bytes: Buffer;
}

const text = (value: unknown, field: string, max: number, required: boolean): string | undefined => {
  if (value === undefined || value === null) {
    if (required) throw new ValidationError(`${field} is required`);
    return undefined;
  }
  if (typeof value !== "string") throw new ValidationError(`${field} must be a string`);
  if (value.length > max) throw new ValidationError(`${field} must be at most ${max} characters`);
  return value;
};

/** The bytes of one posted file: base64 (cloud-init's encoding) or plain text. */
function fileOf(value: unknown, index: number): PostedFile {
  if (!isPlainObject(value)) throw new ValidationError(`files[${index}] must be an object`);
  const path = text(value.path, `files[${index}].path`, 256, true)!;
  const content = text(value.content, `files[${index}].content`, REPORT_LIMITS.inlineChunkBytes * 2, true)!;
  if (value.encoding !== undefined && value.encoding !== "base64" && value.encoding !== "text") {
    throw new ValidationError(`files[${index}].encoding must be base64 or text`);
  }
  const bytes = value.encoding === "base64" ? Buffer.from(content, "base64") : Buffer.from(content);
  return { path, bytes };
}

/**
 * One event in cloud-init's webhook format: `event_type` (start, progress, finish), `name`,
 * `description`, `origin`, `timestamp`, `result` (finish: SUCCESS, WARN or FAIL), optional
 * `files`, and the installed system's `addresses` (this service's own, reportedAddresses.ts).
 * Anything else is a 400 (the machine's script is wrong, and its operator should see so).
 */
export function parseMachineEvent(body: unknown, now: Date): { event: MachineEvent; files: PostedFile[]; addresses?: ReportedNic[] } {
  if (!isPlainObject(body)) throw new ValidationError("A report is a JSON object in cloud-init's webhook format");
  const type = body.event_type;
  if (!(EVENT_TYPES as readonly unknown[]).includes(type)) throw new ValidationError(`event_type must be one of ${EVENT_TYPES.join(", ")}`);
  const name = text(body.name, "name", REPORT_LIMITS.nameChars, true)!;
  if (name === "") throw new ValidationError("name must not be empty");
  const description = text(body.description, "description", REPORT_LIMITS.descriptionChars, false) ?? "";
  const origin = text(body.origin, "origin", 64, false);
  // A start event carries no result; the shipped scripts send an empty one.
  const result = body.result === "" ? undefined : body.result;
  if (result !== undefined && !(EVENT_RESULTS as readonly unknown[]).includes(result)) {
    throw new ValidationError(`result must be one of ${EVENT_RESULTS.join(", ")}`);
  }
  if (body.timestamp !== undefined && (typeof body.timestamp !== "number" || !Number.isFinite(body.timestamp))) {
    throw new ValidationError("timestamp must be a number (epoch seconds)");
  }
  if (body.files !== undefined && !Array.isArray(body.files)) throw new ValidationError("files must be an array");
  const files = ((body.files as unknown[] | undefined) ?? []).map(fileOf);
  const addresses = body.addresses === undefined ? undefined : parseReportedNics(body.addresses);
  const event: MachineEvent = {
    at: now.toISOString(),
    type: type as MachineEvent["type"],
    name,
    description,
    ...(result !== undefined && { result: result as MachineEvent["result"] }),
    ...(origin !== undefined && { origin }),
    ...(typeof body.timestamp === "number" && { timestamp: body.timestamp }),
  };
  return { event, files, ...(addresses && { addresses }) };
}

/** A stage of its own (`modules-final`, `install`), not a step inside one (`modules-final/config-scripts-user`). */
export const isStage = (event: MachineEvent): boolean => !event.name.includes("/");
