import { endpoint } from "../../../lib/http/endpoint";
import { obmLibraryEntry } from "../../../lib/http/provisioning/obm/routes";
import { ok } from "../../../lib/http/responses";
import { obmLibraryEntry as entry } from "../../../lib/provisioning/obm/obmService";

export const handler = endpoint(obmLibraryEntry, async ({ params }) => ok(entry(params.service)));
