import { endpoint } from "../../../lib/http/endpoint";
import { postReport } from "../../../lib/http/provisioning/installReports/routes";
import { ok } from "../../../lib/http/responses";
import { acceptEvent } from "../../../lib/provisioning/installReports/reportService";
import { bootGate, provisioningStores } from "../../../lib/store/compositionRoot";

/** cloud-init's webhook reporting handler posts each event here (its `endpoint`). */
export const handler = endpoint(
  postReport,
  async ({ params, readBody }) => ok(await acceptEvent(await provisioningStores(), params.credential, await readBody(), new Date())),
  { bootGate },
);
