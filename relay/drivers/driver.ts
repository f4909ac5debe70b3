import type { JobAction, JobResult } from "../../lib/wire/relay";

/** What a driver answers for one action: what the BMC said, and its own error text when it refused (the wire's result). */
export type DriverResult = JobResult;

/** Drives one kind of BMC (IPMI, Redfish) with an OBM setting's config. */
export type Driver = (config: Record<string, unknown>, action: JobAction) => Promise<DriverResult>;

export const failed = (error: string, output = ""): DriverResult => ({ ok: false, output, error });

/** A config value as text, or undefined when absent or empty. */
export function text(config: Record<string, unknown>, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null || value === "") return undefined;
  return String(value);
}
