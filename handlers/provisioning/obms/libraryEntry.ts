import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { obmLibraryEntry } from "../../../lib/provisioning/obm/obmService";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/obms/library/{service} */
export const handler = northboundRoute({}, async (event) => ok(obmLibraryEntry(param(event, "service"))));
