import { endpoint } from "../../lib/http/endpoint";
import document from "../../lib/http/openapi/provisioning.generated.json";
import { servedDocument } from "../../lib/http/openapi/served";
import { ok } from "../../lib/http/responses";
import { provisioningOpenApi } from "../../lib/http/routes/provisioning";

export const handler = endpoint(provisioningOpenApi, async ({ event }) => ok(servedDocument(document, event, "provisioning")));
