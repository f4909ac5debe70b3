import { endpoint } from "../../lib/http/endpoint";
import { docsPage } from "../../lib/http/openapi/served";
import { tasksDocs } from "../../lib/http/routes/tasks";

export const handler = endpoint(tasksDocs, async () => docsPage("Task list service"));
