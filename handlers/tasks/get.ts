import { taskRoute } from "../../lib/http/taskRoute";
import { taskStore } from "../../lib/store/compositionRoot";
import { getTask } from "../../lib/tasks/taskService";
import { parseTaskId } from "../../lib/tasks/task";
import { taskPresenter } from "../../lib/http/presenters/taskPresenter";
import { ok } from "../../lib/http/responses";

/** GET /todo/api/v1.0/tasks/{id} */
export const handler = taskRoute({}, async (event) => {
  const task = await getTask(taskStore(), parseTaskId(event.pathParameters?.id));
  return ok({ task: taskPresenter(event, "single")(task) });
});
