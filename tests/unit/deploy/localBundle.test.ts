import { localEntry, localEntryPath, onLocalBundle } from "../../../lib/deploy/localBundle";
import { serverlessFunctions } from "../../../lib/http/routes/serverlessFunctions";

const fn = (handler: string) => ({ ...Object.values(serverlessFunctions("memory"))[0], handler });

describe("the local stage's one bundle", () => {
  it("has an entry per store, under the ignored folder", () => {
    expect(localEntryPath("memory")).toBe(".local-bundle/memory.ts");
    expect(localEntryPath("dynamodb")).toBe(".local-bundle/dynamodb.ts");
  });

  it("exports each function's handler under the function's name, from the entry's folder", () => {
    // Arrange
    const functions = { listTasks: fn("handlers/tasks/list.handler"), tick: fn("handlers/pollers/tick.run") };
    // Act
    const text = localEntry(functions, ".local-bundle/memory.ts");
    // Assert
    expect(text.split("\n").slice(1)).toEqual([
      'export const listTasks = (...args: unknown[]) => require("../handlers/tasks/list").handler(...args);',
      'export const tick = (...args: unknown[]) => require("../handlers/pollers/tick").run(...args);',
      "",
    ]);
  });

  it("names a module beside the entry with ./", () => {
    expect(localEntry({ here: fn("local/one.handler") }, "local/entry.ts")).toContain('require("./one").handler(...args)');
  });

  it("refuses a function whose name is no JavaScript name, and a handler without its export", () => {
    expect(() => localEntry({ "list-tasks": fn("handlers/tasks/list.handler") }, "e/x.ts")).toThrow('function name "list-tasks"');
    expect(() => localEntry({ listTasks: fn("handler") }, "e/x.ts")).toThrow('handler "handler" does not name');
  });

  it("points every function at its export of the entry and keeps the rest of its definition", () => {
    // Arrange
    const functions = serverlessFunctions("dynamodb");
    // Act
    const local = onLocalBundle(functions, ".local-bundle/dynamodb.ts");
    // Assert
    expect(Object.keys(local)).toEqual(Object.keys(functions));
    for (const [name, definition] of Object.entries(local)) {
      const { environment: _resolvedByCloudFormation, ...rest } = functions[name];
      expect({ ...definition, environment: undefined }).toEqual({ ...rest, handler: `.local-bundle/dynamodb.${name}` });
    }
  });

  it("leaves out the environment values only CloudFormation resolves, so that serverless.yml's local ones stand", () => {
    // Arrange: a function that makes relay jobs (its deployed RELAY_PUSH_URL names the stack's WebSocket API)
    const functions = serverlessFunctions("dynamodb");
    const { nodeAction, runPollers } = functions;
    const given = { ...runPollers, environment: { KEPT: "yes", RELAY_PUSH_URL: { Ref: "WebsocketsApi" } } };
    // Act
    const local = onLocalBundle({ nodeAction, runPollers: given }, ".local-bundle/dynamodb.ts");
    // Assert
    expect(nodeAction.environment).toEqual({
      RELAY_PUSH_URL: expect.objectContaining({ "Fn::Sub": expect.stringContaining("WebsocketsApi") }),
    });
    expect(local.nodeAction.environment).toBeUndefined();
    expect(local.runPollers.environment).toEqual({ KEPT: "yes" });
  });

  it("every function of both stores can be an export (the registry's names are JavaScript names)", () => {
    for (const store of ["memory", "dynamodb"] as const) {
      const text = localEntry(serverlessFunctions(store), localEntryPath(store));
      expect(text.match(/^export /gm)).toHaveLength(Object.keys(serverlessFunctions(store)).length);
    }
  });
});
