import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { obmLibraryEntry } from "../../../lib/http/routes/provisioning";
import { obmLibraryEntry as entry } from "../../../lib/provisioning/obm/obmService";

export const handler = endpoint(obmLibraryEntry, async ({ params }) => ok(entry(params.service)));
