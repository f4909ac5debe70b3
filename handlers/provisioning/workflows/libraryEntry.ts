import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { graphLibraryEntry } from "../../../lib/http/routes/provisioning";
import { graphLibraryEntry as entry, graphLibrary } from "../../../lib/provisioning/workflows/workflowService";

/** `*` is the whole library (RackHD's later form). */
export const handler = endpoint(graphLibraryEntry, async ({ params }) => ok(params.name === "*" ? graphLibrary() : entry(params.name)));
