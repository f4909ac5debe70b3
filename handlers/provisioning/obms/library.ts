import { northboundRoute } from "../../../lib/http/provisioningRoute";
import { obmLibrary } from "../../../lib/provisioning/obm/obmService";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/obms/library */
export const handler = northboundRoute({}, async () => ok(obmLibrary()));
