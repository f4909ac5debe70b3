import { ValidationError } from "../../errors";
import { type ApiContext, renderContext } from "../apiContext";
import { type GraphDefinition, labelOf } from "../graphs/graphTypes";
import { mergeGraphOptions, resolveTaskOptions } from "../graphs/options";
import { builtInTask, entryTask, type TaskFinder } from "../graphs/taskDefinitions";
import { newObjectId, newUuid } from "../ids";
import { redact } from "../secrets";
import { checkInstallOptions, installUserData } from "./installOptions";
import { effectSecrets, sealInstallSecrets } from "./sealSecrets";
import { renderDeep } from "./templateRender";
import type { Workflow, WorkflowTask } from "./workflow";

const TERMINAL_ON = ["succeeded", "timeout", "cancelled", "failed"];

/**
 * A new workflow record for `graph` on `nodeId`: options merged and resolved per task, rendered
 * (`{{api.server}}`, `{{options.x}}`, `{{task.nodeId}}`), passwords turned into crypt hashes.
 * Throws ValidationError for a required option that is missing or a template value that is.
 * `tasks` finds the library tasks the graph names (the built-in ones unless a caller's library).
 */
export function buildWorkflow(
  graph: GraphDefinition,
  requestOptions: Record<string, unknown>,
  nodeId: string,
  api: ApiContext,
  now: Date,
  tasks: TaskFinder = builtInTask,
): Workflow {
  const graphOptions = mergeGraphOptions(graph, requestOptions);
  const stamp = now.toISOString();
  const instanceIds = new Map(graph.tasks.map((entry) => [labelOf(entry), newUuid()]));
  const built: Record<string, WorkflowTask> = {};
  let userData: string | undefined;
  const taskSecrets: Record<string, Record<string, string>> = {};
  for (const entry of graph.tasks) {
    const definition = entryTask(entry, tasks);
    if (!definition) throw new ValidationError(`Graph ${graph.injectableName} names an unknown task ${entry.taskName}`);
    const resolved = resolveTaskOptions(graph, entry, definition, graphOptions);
    const rendered = renderDeep(resolved, { ...renderContext(api), options: resolved, task: { nodeId } });
    if (definition.kind === "install") {
      checkInstallOptions(definition, rendered);
      userData = installUserData(rendered) ?? userData;
    }
    const instanceId = instanceIds.get(labelOf(entry))!;
    const secrets = definition.kind === "effect" ? effectSecrets(definition.runJob, rendered) : undefined;
    if (secrets) taskSecrets[instanceId] = secrets;
    const waitingOn: Record<string, string> = {};
    for (const [label, state] of Object.entries(entry.waitOn ?? {})) {
      const dependency = instanceIds.get(label);
      if (!dependency) throw new ValidationError(`Task to wait on does not exist: ${label}`);
      waitingOn[dependency] = state;
    }
    built[instanceId] = {
      instanceId,
      label: labelOf(entry),
      name: definition.injectableName,
      injectableName: definition.injectableName,
      friendlyName: definition.friendlyName,
      implementsTask: definition.implementsTask,
      runJob: definition.runJob,
      kind: definition.kind,
      options: definition.kind === "install" ? sealInstallSecrets(rendered) : redact(rendered),
      properties: definition.properties,
      waitingOn,
      ignoreFailure: entry.ignoreFailure ?? false,
      state: "pending",
      terminalOnStates: TERMINAL_ON,
      createdAt: stamp,
      updatedAt: stamp,
    };
  }
  const instanceId = newUuid();
  return {
    id: newObjectId(now),
    instanceId,
    name: graph.friendlyName,
    injectableName: graph.injectableName,
    _status: "running",
    node: nodeId,
    context: { target: nodeId, graphId: instanceId },
    definition: {
      friendlyName: graph.friendlyName,
      injectableName: graph.injectableName,
      options: redact(graphOptions),
      tasks: graph.tasks,
    },
    tasks: built,
    domain: "default",
    ...(userData !== undefined && { userData }),
    ...(Object.keys(taskSecrets).length > 0 && { taskSecrets }),
    servers: { api: api.server, files: api.fileServer },
    createdAt: stamp,
    updatedAt: stamp,
  };
}
