import { ValidationError } from "../../errors";
import { type ApiContext, renderContext } from "../apiContext";
import type { GraphDefinition } from "../graphs/graphLibrary";
import { taskDefinition } from "../graphs/taskDefinitions";
import { newObjectId, newUuid } from "../ids";
import { redact } from "../secrets";
import { mergeGraphOptions, resolveTaskOptions } from "./options";
import { sealInstallSecrets } from "./sealSecrets";
import { renderDeep } from "./templateRender";
import type { Workflow, WorkflowTask } from "./workflow";

const TERMINAL_ON = ["succeeded", "timeout", "cancelled", "failed"];

/**
 * A new workflow record for `graph` on `nodeId`: options merged and resolved per task, rendered
 * (`{{api.server}}`, `{{options.x}}`, `{{task.nodeId}}`), passwords turned into crypt hashes.
 * Throws ValidationError for a required option that is missing or a template value that is.
 */
export function buildWorkflow(
  graph: GraphDefinition,
  requestOptions: Record<string, unknown>,
  nodeId: string,
  api: ApiContext,
  now: Date,
): Workflow {
  const graphOptions = mergeGraphOptions(graph, requestOptions);
  const stamp = now.toISOString();
  const instanceIds = new Map(graph.tasks.map((entry) => [entry.label, newUuid()]));
  const tasks: Record<string, WorkflowTask> = {};
  for (const entry of graph.tasks) {
    const definition = taskDefinition(entry.taskName);
    if (!definition) throw new ValidationError(`Graph ${graph.injectableName} names an unknown task ${entry.taskName}`);
    const resolved = resolveTaskOptions(graph, entry, definition, graphOptions);
    const rendered = renderDeep(resolved, { ...renderContext(api), options: resolved, task: { nodeId } });
    const instanceId = instanceIds.get(entry.label)!;
    const waitingOn: Record<string, string> = {};
    for (const [label, state] of Object.entries(entry.waitOn ?? {})) {
      const dependency = instanceIds.get(label);
      if (!dependency) throw new ValidationError(`Task ${entry.label} waits on an unknown task ${label}`);
      waitingOn[dependency] = state;
    }
    tasks[instanceId] = {
      instanceId,
      label: entry.label,
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
    tasks,
    domain: "default",
    createdAt: stamp,
    updatedAt: stamp,
  };
}
