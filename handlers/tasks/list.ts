import { endpoint } from "../../lib/http/endpoint";
import { pagedAnswer } from "../../lib/http/paging";
import { presentTasks } from "../../lib/http/presenters/taskPresenter";
import { listTasks } from "../../lib/http/tasks/routes";
import { taskStore } from "../../lib/store/compositionRoot";
import * as tasks from "../../lib/tasks/taskService";

export const handler = endpoint(listTasks, async ({ event, query }) => {
  const present = presentTasks(event, "list");
  return pagedAnswer(event, query, await tasks.listTasks(taskStore()), (page) => ({ tasks: page.map(present) }));
});
