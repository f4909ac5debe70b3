import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { parseJsonBody } from "../../../lib/http/middleware/jsonBody";
import { postReport } from "../../../lib/http/provisioning/installReports/routes";
import { ok } from "../../../lib/http/responses";
import { acceptEvent } from "../../../lib/provisioning/installReports/reportService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/**
 * cloud-init's webhook reporting handler posts each event here (its `endpoint`). It sends its JSON
 * with no Content-Type (requests' default for a string body), so the body is read as JSON
 * whatever its type says; the domain checks every field (machineEvent.ts).
 */
export const handler = endpoint(
  postReport,
  async ({ event, params }) => {
    const body = await parseJsonBody({ ...event, headers: { ...event.headers, "content-type": "application/json" } }, "required");
    return ok(await acceptEvent(await bootStores(relayOf(event)), params.credential, body, new Date()));
  },
  { bootGate },
);
