import { endpoint } from "../../lib/http/endpoint";
import { presentTasks } from "../../lib/http/presenters/taskPresenter";
import { ok } from "../../lib/http/responses";
import { listTasks } from "../../lib/http/routes/tasks";
import { taskStore } from "../../lib/store/compositionRoot";
import * as tasks from "../../lib/tasks/taskService";

export const handler = endpoint(listTasks, async ({ event }) => {
  const all = await tasks.listTasks(taskStore());
  return ok({ tasks: all.map(presentTasks(event, "list")) });
});
