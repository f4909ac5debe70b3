import { endpoint } from "../../lib/http/endpoint";
import { docsPage } from "../../lib/http/openapi/served";
import { tasksDocs } from "../../lib/http/tasks/routes";

export const handler = endpoint(tasksDocs, async () => docsPage("Task list service"));
