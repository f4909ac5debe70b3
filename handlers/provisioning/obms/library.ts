import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { obmLibrary } from "../../../lib/http/routes/provisioning";
import { obmLibrary as library } from "../../../lib/provisioning/obm/obmService";

export const handler = endpoint(obmLibrary, async () => ok(library()));
