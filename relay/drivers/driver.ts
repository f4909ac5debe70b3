import type { JobAction, JobResult } from "../../lib/wire/relay";

/** What a driver answers for one action: what the BMC said, and its own error text when it refused (the wire's result). */
export type DriverResult = JobResult;

/** Drives one kind of BMC (IPMI, Redfish) with an OBM setting's config. */
export type Driver = (config: Record<string, unknown>, action: JobAction) => Promise<DriverResult>;

export const failed = (error: string, output = ""): DriverResult => ({ ok: false, output, error });

/** The job kinds this relay knows (lib/wire/relay.ts's at its version). */
const KINDS: ReadonlySet<string> = new Set(["power", "bootDevice", "identify", "poll", "inventory", "biosSettings"]);

/** A newer service's job of a kind this relay does not know: refused, and nothing done; undefined for a known kind. */
export const unknownKind = (action: JobAction): DriverResult | undefined =>
  KINDS.has(action.kind) ? undefined : failed(`This relay does not know jobs of kind ${String(action.kind)}: update it`);

/** A config value as text, or undefined when absent or empty. */
export function text(config: Record<string, unknown>, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null || value === "") return undefined;
  return String(value);
}
