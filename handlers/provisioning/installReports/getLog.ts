import { endpoint } from "../../../lib/http/endpoint";
import { getInstallLog } from "../../../lib/http/provisioning/installReports/routes";
import { text } from "../../../lib/http/responses";
import { readInstallLog } from "../../../lib/provisioning/installReports/reportService";
import { findNode } from "../../../lib/provisioning/nodes/findNode";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** The log as text (what an installer writes; bytes that are no UTF-8 show as U+FFFD). */
export const handler = endpoint(getInstallLog, async ({ params, query }) => {
  const stores = await provisioningStores();
  const seq = query.seq?.[0];
  const log = await readInstallLog(
    stores,
    await findNode(stores, params.identifier),
    params.name,
    seq === undefined ? undefined : Number(seq),
    new Date(),
  );
  return text(200, log.toString("utf8"));
});
