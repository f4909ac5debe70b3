import { endpoint } from "../../../lib/http/endpoint";
import { SERIALIZABLES } from "../../../lib/http/openapi/serializables";
import { schemaList } from "../../../lib/http/provisioning/docs/routes";
import { ok } from "../../../lib/http/responses";

export const handler = endpoint(schemaList, async () => ok(SERIALIZABLES));
