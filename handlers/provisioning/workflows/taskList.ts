import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { taskList } from "../../../lib/http/routes/provisioning";
import { taskLibrary } from "../../../lib/provisioning/workflows/workflowService";

export const handler = endpoint(taskList, async ({ event, query }) => pagedAnswer(event, query, taskLibrary(), (page) => page));
