import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { graphLibrary } from "../../../lib/http/routes/provisioning";
import { graphLibrary as library } from "../../../lib/provisioning/workflows/workflowService";

export const handler = endpoint(graphLibrary, async () => ok(library()));
