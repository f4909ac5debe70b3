import { endpoint } from "../../lib/http/endpoint";
import { ok } from "../../lib/http/responses";
import { deleteTask } from "../../lib/http/tasks/routes";
import { taskStore } from "../../lib/store/compositionRoot";
import * as tasks from "../../lib/tasks/taskService";

export const handler = endpoint(deleteTask, async ({ params }) => {
  await tasks.deleteTask(taskStore(), Number(params.id));
  return ok({ result: true });
});
