import { NOOP_OBM_SERVICE } from "../obm/obmLibrary";
import type { ObmSetting } from "../obm/obmSetting";

export type ObmOutcome = { ok: true; service: string } | { ok: false; error: string };

/**
 * Runs an OBM action (set PXE boot, reboot, power on/off) for a node. The noop service succeeds at
 * once and a person power-cycles the machine. Other services are stored, but driving real hardware
 * (IPMI, SNMP, ...) is outside a Lambda function's reach: the task fails and says so.
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
  return {
    ok: false,
    error: `${service} cannot ${action}: driving hardware is outside what this service can do from AWS Lambda. Use ${NOOP_OBM_SERVICE} and power-cycle the node by hand.`,
  };
}
