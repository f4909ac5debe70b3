import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { keepRedactedSecrets } from "../secrets";
import { obmServiceEntry, serviceSupportsNode } from "./obmLibrary";

export interface ObmSetting {
  service: string;
  config: Record<string, unknown>;
}

/** One `{service, config}` entry; `config` defaults to `{}` (noop needs none). */
export function parseObmSetting(value: unknown): ObmSetting {
  if (!isPlainObject(value)) throw new ValidationError("OBM setting must be an object with service and config");
  if (typeof value.service !== "string" || value.service === "") throw new ValidationError("OBM setting needs a service name");
  if (!obmServiceEntry(value.service)) throw new ValidationError(`Unknown OBM service ${value.service}`);
  const config = value.config ?? {};
  if (!isPlainObject(config)) throw new ValidationError("OBM config must be an object");
  return { service: value.service, config };
}

/** The body of POST /nodes/{id}/obm (or a node's `obmSettings`): one setting or an array of them. */
export function parseObmSettings(body: unknown): ObmSetting[] {
  const entries = Array.isArray(body) ? body : [body];
  if (entries.length === 0) throw new ValidationError("At least one OBM setting is required");
  return entries.map(parseObmSetting);
}

export function assertServicesSupported(settings: readonly ObmSetting[], node: Record<string, unknown>): void {
  for (const { service } of settings) {
    if (!serviceSupportsNode(service, node)) throw new ValidationError(`Service ${service} is not supported in current node`);
  }
}

/**
 * Upsert per service (RackHD's later behaviour: one entry per service, so a repeated POST is
 * idempotent). A config echoed back with "REDACTED" secrets keeps the stored secrets.
 */
export function upsertObmSettings(current: readonly ObmSetting[], incoming: readonly ObmSetting[]): ObmSetting[] {
  const result = current.map((setting) => ({ ...setting }));
  for (const setting of incoming) {
    const at = result.findIndex((existing) => existing.service === setting.service);
    if (at === -1) result.push({ service: setting.service, config: keepRedactedSecrets(setting.config, undefined) as Record<string, unknown> });
    else result[at] = { service: setting.service, config: keepRedactedSecrets(setting.config, result[at].config) as Record<string, unknown> };
  }
  return result;
}
