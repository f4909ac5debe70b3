import type { Context } from "aws-lambda";
import { SCHEDULED } from "../../../lib/http/routes/scheduled";
import { count } from "../../../lib/invocation";
import { runBackground } from "../../../lib/lambda/backgroundFunction";
import { logLine } from "../../../lib/logger";
import { runDuePollers } from "../../../lib/provisioning/pollers/pollerService";
import { markQuietRelays } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/**
 * The scheduled function (SCHEDULED in lib/http/routes/scheduled.ts): every due poller runs once,
 * and relays gone quiet are marked lost (their `relay.lost` event). A failure is counted
 * (PollerFailures) and thrown: Lambda retries the call twice, then puts it in the dead-letter
 * queue, which an alarm watches.
 */
export async function handler(_event?: unknown, context?: Context): Promise<{ ran: number }> {
  return runBackground(
    SCHEDULED[0],
    context,
    async () => {
      const stores = await provisioningStores();
      const now = new Date();
      const ran = await runDuePollers(stores, now);
      count("PollersRun", ran);
      const lost = await markQuietRelays(stores, now);
      logLine({ level: "info", msg: "pollers run", ran, relaysLost: lost });
      return { ran };
    },
    (error, invocation) => {
      invocation.counts.set("PollerFailures", 1);
      logLine({ level: "error", msg: "pollers failed", error: error.message });
    },
  );
}
