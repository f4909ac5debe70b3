import viewer from "redoc/bundles/redoc.standalone.js";
import { endpoint } from "../../lib/http/endpoint";
import { viewerScript } from "../../lib/http/openapi/served";
import { tasksDocsViewer } from "../../lib/http/tasks/routes";

export const handler = endpoint(tasksDocsViewer, async () => viewerScript(viewer));
