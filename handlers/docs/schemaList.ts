import { endpoint } from "../../lib/http/endpoint";
import { SERIALIZABLES } from "../../lib/http/openapi/serializables";
import { ok } from "../../lib/http/responses";
import { schemaList } from "../../lib/http/routes/provisioning";

export const handler = endpoint(schemaList, async () => ok(SERIALIZABLES));
