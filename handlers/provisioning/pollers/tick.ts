import { SCHEDULED } from "../../../lib/http/routes/scheduled";
import { runAs } from "../../../lib/invocation";
import { logLine } from "../../../lib/logger";
import { runDuePollers } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** The scheduled function (SCHEDULED in lib/http/routes/scheduled.ts): every due poller runs once. */
export async function handler(): Promise<{ ran: number }> {
  const [entry] = SCHEDULED;
  const ran = await runAs({ function: entry.function, access: entry.data }, async () =>
    runDuePollers(await provisioningStores(), new Date()),
  );
  logLine({ level: "info", msg: "pollers run", ran });
  return { ran };
}
