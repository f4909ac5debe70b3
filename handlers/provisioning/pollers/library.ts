import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { pollerLibrary } from "../../../lib/http/routes/pollers";
import { pollerLibrary as library } from "../../../lib/provisioning/pollers/pollerService";

export const handler = endpoint(pollerLibrary, async () => ok(library()));
