import { endpoint } from "../../lib/http/endpoint";
import { servedDocument } from "../../lib/http/openapi/served";
import document from "../../lib/http/openapi/tasks.generated.json";
import { ok } from "../../lib/http/responses";
import { tasksOpenApi } from "../../lib/http/tasks/routes";

export const handler = endpoint(tasksOpenApi, async ({ event }) => ok(servedDocument(document, event, "tasks")));
