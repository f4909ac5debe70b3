import { endpoint } from "../../../lib/http/endpoint";
import { pollerLibrary } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { pollerLibrary as library } from "../../../lib/provisioning/pollers/pollerService";

export const handler = endpoint(pollerLibrary, async () => ok(library()));
