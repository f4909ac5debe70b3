import viewer from "redoc/bundles/redoc.standalone.js";
import { endpoint } from "../../../lib/http/endpoint";
import { viewerScript } from "../../../lib/http/openapi/served";
import { provisioningDocsViewer } from "../../../lib/http/provisioning/docs/routes";

export const handler = endpoint(provisioningDocsViewer, async () => viewerScript(viewer));
