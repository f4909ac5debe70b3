import { NOOP_OBM_SERVICE } from "./obmLibrary";
import type { ObmSetting } from "./obmSetting";

export type ObmOutcome = { ok: true; service: string; relay?: boolean } | { ok: false; error: string };

/** The OBM services a site's relay drives (relays/jobService.ts queues their work). */
export const RELAY_SERVICES: ReadonlySet<string> = new Set(["ipmi-obm-service", "redfish-obm-service"]);

/**
 * Runs an OBM action (set PXE boot, reboot, power on/off) for a node. The noop service succeeds at
 * once and a person power-cycles the machine. IPMI and Redfish go to a relay of the node's site
 * (`relay: true`: the task runs until the relay reports). Others (SNMP PDUs, ...) cannot be driven
 * from AWS Lambda: the task fails and says so.
 */
export function runObmAction(action: string, requested: unknown, settings: readonly ObmSetting[] | undefined): ObmOutcome {
  if (!settings) return { ok: false, error: "Node not found" };
  let service: string;
  if (typeof requested === "string" && requested !== "") {
    if (!settings.some((setting) => setting.service === requested)) {
      return { ok: false, error: `Node should have OBM settings for service: ${requested}` };
    }
    service = requested;
  } else if (settings.length === 0) {
    return { ok: false, error: "No OBM service assigned to this node." };
  } else if (settings.length > 1) {
    return { ok: false, error: "More than one OBM service assigned to this node." };
  } else {
    service = settings[0].service;
  }
  if (service === NOOP_OBM_SERVICE) return { ok: true, service };
  if (RELAY_SERVICES.has(service)) return { ok: true, service, relay: true };
  return {
    ok: false,
    error: `${service} cannot ${action}: driving hardware is outside what this service can do from AWS Lambda. Use ${NOOP_OBM_SERVICE} and power-cycle the node by hand.`,
  };
}
