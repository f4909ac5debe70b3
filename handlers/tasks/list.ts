import { taskRoute } from "../../lib/http/taskRoute";
import { taskStore } from "../../lib/store/compositionRoot";
import { listTasks } from "../../lib/tasks/taskService";
import { taskPresenter } from "../../lib/http/presenters/taskPresenter";
import { ok } from "../../lib/http/responses";

/** GET /todo/api/v1.0/tasks */
export const handler = taskRoute({ listRoute: true }, async (event) => {
  const tasks = await listTasks(taskStore());
  return ok({ tasks: tasks.map(taskPresenter(event, "list")) });
});
