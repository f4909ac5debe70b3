import type { Context } from "aws-lambda";
import { SCHEDULED } from "../../../lib/http/routes/scheduled";
import { count, invocationOf, runAs } from "../../../lib/invocation";
import { logLine } from "../../../lib/logger";
import { writeMetrics } from "../../../lib/metrics";
import { runDuePollers } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/**
 * The scheduled function (SCHEDULED in lib/http/routes/scheduled.ts): every due poller runs once.
 * A failure is counted (PollerFailures) and thrown: Lambda retries the call twice, then puts it in
 * the dead-letter queue, which an alarm watches.
 */
export async function handler(_event?: unknown, context?: Context): Promise<{ ran: number }> {
  const [entry] = SCHEDULED;
  const invocation = invocationOf(entry.function, entry.data, context?.awsRequestId ? { awsRequestId: context.awsRequestId } : {});
  try {
    return await runAs(invocation, async () => {
      const ran = await runDuePollers(await provisioningStores(), new Date());
      count("PollersRun", ran);
      logLine({ level: "info", msg: "pollers run", ran });
      return { ran };
    });
  } catch (error) {
    invocation.counts.set("PollerFailures", 1);
    runAs(invocation, () => logLine({ level: "error", msg: "pollers failed", error: (error as Error).message }));
    throw error;
  } finally {
    writeMetrics(invocation);
  }
}
