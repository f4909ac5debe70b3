import { endpoint } from "../../../lib/http/endpoint";
import document from "../../../lib/http/openapi/provisioning.generated.json";
import { servedDocument } from "../../../lib/http/openapi/served";
import { provisioningOpenApi } from "../../../lib/http/provisioning/docs/routes";
import { ok } from "../../../lib/http/responses";

export const handler = endpoint(provisioningOpenApi, async ({ event }) => ok(servedDocument(document, event, "provisioning")));
