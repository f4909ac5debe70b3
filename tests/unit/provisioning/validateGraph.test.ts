import fc from "fast-check";
import { isDomainError } from "../../../lib/errors";
import { GRAPH_LIBRARY } from "../../../lib/provisioning/graphs/graphLibrary";
import type { LibraryTask } from "../../../lib/provisioning/graphs/graphTypes";
import { builtInTask } from "../../../lib/provisioning/graphs/taskDefinitions";
import { validateGraph } from "../../../lib/provisioning/graphs/validateGraph";

const userTasks: Record<string, LibraryTask> = {
  "Task.Hello": { friendlyName: "Hello", injectableName: "Task.Hello", implementsTask: "Task.Base.noop", options: {}, properties: {} },
  "Task.Orphan": { friendlyName: "Orphan", injectableName: "Task.Orphan", implementsTask: "im_1", options: {}, properties: {} },
  "Task.Needs": {
    friendlyName: "Needs",
    injectableName: "Task.Needs",
    implementsTask: "Task.Base.Obm.Node",
    options: { obmServiceName: null },
    properties: {},
  },
};
const find = (name: string) => userTasks[name] ?? builtInTask(name);

const graph = (tasks: unknown[], extra: Record<string, unknown> = {}) => ({
  friendlyName: "G",
  injectableName: "Graph.G",
  tasks,
  ...extra,
});
const refusal = (body: Record<string, unknown>) => {
  try {
    validateGraph(body, find);
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
};

describe("validateGraph (RackHD era B/C checks, with their texts)", () => {
  it("accepts every built-in graph as it stands", () => {
    for (const graph of GRAPH_LIBRARY) expect(validateGraph({ ...graph }, find).injectableName).toBe(graph.injectableName);
  });

  it("refuses a microkernel task with no bootstrap before it (RackHD's required property)", () => {
    expect(refusal(graph([{ label: "dmi", taskName: "Task.Catalog.dmi" }]))).toBe(
      "expected property os.linux.type to be supplied for task Task.Catalog.dmi in graph Graph.G",
    );
  });

  it("accepts user tasks, inline definitions, overrides and an entry without a label (FIT's Graph.post.test)", () => {
    const accepted = validateGraph(
      graph([
        { label: "a", taskName: "Task.Hello" },
        { label: "b", taskDefinition: { ...userTasks["Task.Hello"], injectableName: "Task.Inline" }, waitOn: { a: "finished" } },
        { label: "c", taskName: "Task.Needs", optionOverrides: { action: "reboot" }, waitOn: { b: "succeeded" } },
        { taskName: "Task.noop" },
      ]),
      find,
    );
    expect(accepted.tasks).toHaveLength(4);
    expect(accepted.options).toEqual({});
  });

  it.each([
    [graph("x" as never), "Graph.tasks ([object]) is required"],
    [graph([1]), "Graph.tasks ([object]) is required"],
    [{ injectableName: "Graph.G", tasks: [] }, "friendlyName (string) is required"],
    [
      graph([
        { label: "a", taskName: "Task.noop" },
        { label: "a", taskName: "Task.noop" },
      ]),
      "The task label 'a' is used more than once in the graph definition.",
    ],
    [graph([{ label: "a" }]), "All TaskGraph tasks should have either a taskName or taskDefinition property."],
    [graph([{ label: "a", taskName: "Task.Nope" }]), "taskDefinition (object) is required: no task named Task.Nope in the library"],
    [graph([{ label: "a", taskName: "Task.Orphan" }]), "Base task definition for im_1 should exist"],
    [graph([{ label: "a", taskDefinition: { friendlyName: "x", injectableName: "y" } }]), "implementsTask (string) is required"],
    [graph([{ label: "a", taskName: "Task.noop", waitOn: { z: "finished" } }]), "Task to wait on does not exist: z"],
    [
      graph([
        { label: "a", taskName: "Task.noop", waitOn: { b: "finished" } },
        { label: "b", taskName: "Task.noop", waitOn: { a: "finished" } },
      ]),
      "Detected a cyclic graph with tasks b and a",
    ],
    [graph([{ label: "a", taskName: "Task.Needs" }]), "required option action for task Task.Needs in graph Graph.G"],
  ])("refuses %j: %s", (body, text) => {
    expect(refusal(body as Record<string, unknown>)).toBe(text);
  });

  it("takes a required option from the graph's options, for the label or from defaults", () => {
    const byLabel = graph([{ label: "a", taskName: "Task.Needs" }], { options: { a: { action: "reboot" } } });
    expect(refusal(byLabel)).toBe("accepted");
  });

  it("answers any JSON object with a definition or a ValidationError, never another error", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue(), { maxLength: 5 }), (extra, tasks) => {
        try {
          validateGraph({ ...extra, friendlyName: "G", injectableName: "Graph.G", tasks }, find);
        } catch (error) {
          expect(isDomainError(error) && error.kind).toBe("bad-request");
        }
      }),
    );
  });
});
