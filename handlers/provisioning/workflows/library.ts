import { northboundRoute } from "../../../lib/http/provisioningRoute";
import { graphLibrary } from "../../../lib/provisioning/workflows/workflowService";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/workflows/library */
export const handler = northboundRoute({}, async () => ok(graphLibrary()));
