import { JOB_KINDS, type JobAction, type JobResult } from "../../lib/wire/relay";

/** What a driver answers for one action: what the BMC said, and its own error text when it refused (the wire's result). */
export type DriverResult = JobResult;

/** Which node a job is for (a virtual media image is the node's, and replaced by its next). */
export interface JobContext {
  node: string;
}

/** Drives one kind of BMC (IPMI, Redfish) with an OBM setting's config. */
export type Driver = (config: Record<string, unknown>, action: JobAction, job?: JobContext) => Promise<DriverResult>;

export const failed = (error: string, output = ""): DriverResult => ({ ok: false, output, error });

/** The job kinds this relay knows (lib/wire/relay.ts's at its version). */
const KINDS: ReadonlySet<string> = new Set(JOB_KINDS);

/** A newer service's job of a kind this relay does not know: refused, and nothing done; undefined for a known kind. */
export const unknownKind = (action: JobAction): DriverResult | undefined =>
  KINDS.has(action.kind) ? undefined : failed(`This relay does not know jobs of kind ${String(action.kind)}: update it`);

/** A config value as text, or undefined when absent or empty. */
export function text(config: Record<string, unknown>, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null || value === "") return undefined;
  return String(value);
}
