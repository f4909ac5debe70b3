import { taskRoute } from "../../lib/http/taskRoute";
import { taskStore } from "../../lib/store/compositionRoot";
import { deleteTask } from "../../lib/tasks/taskService";
import { parseTaskId } from "../../lib/tasks/task";
import { ok } from "../../lib/http/responses";

/** DELETE /todo/api/v1.0/tasks/{id} */
export const handler = taskRoute({}, async (event) => {
  await deleteTask(taskStore(), parseTaskId(event.pathParameters?.id));
  return ok({ result: true });
});
