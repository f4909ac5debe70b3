import { deepMerge } from "../../../lib/json";
import { graphDefinition } from "../../../lib/provisioning/graphs/graphLibrary";
import { resolveTaskOptions } from "../../../lib/provisioning/graphs/options";
import { taskDefinition } from "../../../lib/provisioning/graphs/taskDefinitions";

describe("deepMerge (lodash merge semantics)", () => {
  it("merges objects recursively with the source winning", () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, d: 1 }, { a: { b: 3 }, e: 4 })).toEqual({ a: { b: 3, c: 2 }, d: 1, e: 4 });
  });

  it("merges arrays index by index and skips undefined", () => {
    expect(deepMerge([{ a: 1 }, 2, 3], [{ b: 2 }, undefined])).toEqual([{ a: 1, b: 2 }, 2, 3]);
  });

  it("ignores prototype keys", () => {
    const merged = deepMerge({}, JSON.parse('{"__proto__":{"polluted":true},"ok":1}')) as Record<string, unknown>;
    expect(merged.ok).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("resolveTaskOptions", () => {
  const graph = graphDefinition("Graph.InstallCentOS")!;
  const [pxe, , install] = graph.tasks;

  it("label beats defaults beats the task's default, for the keys the task declares", () => {
    const options = deepMerge(graph.options, {
      defaults: { obmServiceName: "noop-obm-service", rootPassword: "fromDefaults", unknownKey: 1 },
      "install-os": { version: "7.0", rootPassword: "root", extra: "x" },
    }) as Record<string, unknown>;
    const installOptions = resolveTaskOptions(graph, install, taskDefinition(install.taskName!)!, options);
    expect(installOptions).toMatchObject({
      version: "7.0",
      rootPassword: "root",
      extra: "x",
      profile: "install-centos.ipxe",
      _taskTimeout: 3_600_000,
    });
    expect(installOptions.repo).toBe("{{api.server}}/centos/{{options.version}}/os/x86_64");
    expect(installOptions).not.toHaveProperty("unknownKey");
    expect(installOptions).not.toHaveProperty("obmServiceName");
    const pxeOptions = resolveTaskOptions(graph, pxe, taskDefinition(pxe.taskName!)!, options);
    expect(pxeOptions).toEqual({ action: "setBootPxe", obmServiceName: "noop-obm-service" });
  });

  it("fails when a required option ends up empty", () => {
    expect(() => resolveTaskOptions(graph, install, taskDefinition(install.taskName!)!, { "install-os": { profile: "" } })).toThrow(
      "required option profile for task Task.Os.Install.CentOS in graph Graph.InstallCentOS",
    );
  });
});
