import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { obmLibrary } from "../../../lib/http/provisioning/obm/routes";
import { obmLibrary as library } from "../../../lib/provisioning/obm/obmService";

export const handler = endpoint(obmLibrary, async ({ event, query }) => pagedAnswer(event, query, library(), (page) => page));
