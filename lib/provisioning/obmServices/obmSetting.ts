import { ValidationError } from "../../errors";
import { keepRedactedSecrets } from "../secrets";
import { obmServiceEntry, serviceSupportsNode } from "./obmLibrary";

export interface ObmSetting {
  service: string;
  config: Record<string, unknown>;
}

/** An OBM setting as the HTTP adapter hands it over (checked against its schema). */
export interface ObmSettingInput {
  service: string;
  config?: Record<string, unknown>;
}

/** One `{service, config}` entry of a known service; `config` defaults to `{}` (noop needs none). */
export function parseObmSetting(value: ObmSettingInput): ObmSetting {
  if (!obmServiceEntry(value.service)) throw new ValidationError(`Unknown OBM service ${value.service}`);
  return { service: value.service, config: value.config ?? {} };
}

/** The body of POST /nodes/{id}/obm (or a node's `obmSettings`): one setting or an array of them. */
export function parseObmSettings(body: ObmSettingInput | readonly ObmSettingInput[]): ObmSetting[] {
  return (Array.isArray(body) ? body : [body]).map(parseObmSetting);
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
    if (at === -1)
      result.push({ service: setting.service, config: keepRedactedSecrets(setting.config, undefined) as Record<string, unknown> });
    else
      result[at] = { service: setting.service, config: keepRedactedSecrets(setting.config, result[at].config) as Record<string, unknown> };
  }
  return result;
}
