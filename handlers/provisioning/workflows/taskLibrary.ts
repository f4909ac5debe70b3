import { taskLibrary } from "../../../lib/http/routes/provisioning";
import { taskDefinitionsOf } from "./taskDefinitions";

export const handler = taskDefinitionsOf(taskLibrary);
