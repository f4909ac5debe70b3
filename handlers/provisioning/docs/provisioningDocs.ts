import { endpoint } from "../../../lib/http/endpoint";
import { docsPage } from "../../../lib/http/openapi/served";
import { provisioningDocs } from "../../../lib/http/provisioning/docs/routes";

export const handler = endpoint(provisioningDocs, async () => docsPage("Node provisioning service (RackHD API 1.1)"));
