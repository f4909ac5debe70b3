import { taskList } from "../../../lib/http/routes/provisioning";
import { taskDefinitionsOf } from "./taskDefinitions";

/** GET /workflows/tasks: the same answer as /workflows/tasks/library (RackHD served both). */
export const handler = taskDefinitionsOf(taskList);
