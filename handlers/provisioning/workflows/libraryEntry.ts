import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { graphLibrary, graphLibraryEntry } from "../../../lib/provisioning/workflows/workflowService";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/workflows/library/{name}; `*` is the whole library (RackHD's later form). */
export const handler = northboundRoute({}, async (event) => {
  const name = param(event, "name");
  return ok(name === "*" ? graphLibrary() : graphLibraryEntry(name));
});
