import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADDRESS_HEADING, addressSection } from "./addresses";
import { BOOT_PATH_HEADING, bootPathSection } from "./bootPath";
import { EVENT_HEADING, eventSection } from "./eventDelivery";
import { FLEET_HEADING, fleetSection } from "./fleet";
import { LIMITS_HEADING, limitsSection } from "./fleetLimits";
import { LINEAR_RULES_HEADING, linearRulesSection } from "./linearRules";
import { LIST_HEADING, listSection } from "./listPages";
import { MICROKERNEL_HEADING, microkernelSection } from "./microkernel";
import { HOSTILE_HEADING, hostileSection } from "./relayHostile";
import { RELAY_HEADING, relaySection } from "./relayPickup";
import { type Results, renderReport } from "./report";
import { withSection } from "./sections";
import { START_HEADING, startSection } from "./start";

/**
 * The sections other benches write (their saved results) and the hand-measured one, after the
 * main report, in BENCHMARKS.md's order: a render then leaves the file as it stands.
 */
const OWN_SECTIONS: [string, (root: string) => string[]][] = [
  [FLEET_HEADING, fleetSection],
  [LIST_HEADING, listSection],
  [ADDRESS_HEADING, addressSection],
  [BOOT_PATH_HEADING, bootPathSection],
  [LIMITS_HEADING, limitsSection],
  [EVENT_HEADING, eventSection],
  [RELAY_HEADING, relaySection],
  [HOSTILE_HEADING, hostileSection],
  [LINEAR_RULES_HEADING, linearRulesSection],
  [START_HEADING, startSection],
  [MICROKERNEL_HEADING, microkernelSection],
];

/** BENCHMARKS.md: the main bench's `results` and bench/analysis.md, then every other section from what `root` saved. */
export function benchmarksDocument(results: Results, root: string): string {
  const report = renderReport(results, readFileSync(join(root, "bench", "analysis.md"), "utf8"));
  return OWN_SECTIONS.reduce((text, [heading, section]) => withSection(text, heading, section(root)), report);
}
