import { type Call, call, deferred, type Handlers, measuring } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/2.0";
const R = "/api/{version}";
const v = { version: "2.0" };

/**
 * Web hooks and events: an operator's hook routes (the test delivery posts to a port nothing
 * listens on, so it measures the signing and a refused connection), and a node's and a
 * workflow's events as a receiver catching up reads them.
 */
export async function hookCases(h: Handlers) {
  /** POST /hooks for a url nothing listens on (port 9, discard). */
  const createHook = (name: string) =>
    call(
      h.createHook,
      {
        method: "POST",
        path: `${A}/hooks`,
        route: `${R}/hooks`,
        pathParameters: v,
        headers: JSON_TYPE,
        body: `{"url":"http://127.0.0.1:9/${name}"}`,
      },
      201,
    );
  const deleteHook = (hookId: string) =>
    call(
      h.deleteHook,
      { method: "DELETE", path: `${A}/hooks/${hookId}`, route: `${R}/hooks/{id}`, pathParameters: { ...v, id: hookId } },
      204,
    );
  const idOf = (answer: { body?: string }) => JSON.parse(answer.body ?? "{}").id as string;
  const id = idOf(await createHook("bench-0")());
  const onHook = (suffix: string) => ({
    path: `${A}/hooks/${id}${suffix}`,
    route: `${R}/hooks/{id}${suffix}`,
    pathParameters: { ...v, id },
  });
  let n = 0;
  const created = await call(
    h.createNode,
    {
      method: "POST",
      path: "/api/1.1/nodes",
      route: `${R}/nodes`,
      pathParameters: { version: "1.1" },
      headers: JSON_TYPE,
      body: '{"name":"bench-events"}',
    },
    201,
  )();
  const node = JSON.parse(created.body ?? "{}").id as string;
  const started = await call(
    h.startWorkflow,
    {
      method: "POST",
      path: `/api/1.1/nodes/${node}/workflows`,
      route: `${R}/nodes/{identifier}/workflows`,
      pathParameters: { version: "1.1", identifier: node },
      headers: JSON_TYPE,
      body: '{"name":"Graph.noop-example"}',
    },
    201,
  )();
  const workflow = JSON.parse(started.body ?? "{}").instanceId as string;
  // tinybench calls a case once to see whether it is async, before any beforeEach: a hook of its own to delete then.
  let deleting: Call<"deleteHook"> = deleteHook(idOf(await createHook("spare")()));
  return [
    {
      name: "POST /hooks",
      run: measuring(h.createHook, async () => createHook(`bench-${++n}`)()),
    },
    { name: "GET /hooks", run: call(h.listHooks, { method: "GET", path: `${A}/hooks`, route: `${R}/hooks`, pathParameters: v }, 200) },
    { name: "GET /hooks/{id}", run: call(h.getHook, { method: "GET", ...onHook("") }, 200) },
    {
      name: "PATCH /hooks/{id}",
      run: call(h.patchHook, { method: "PATCH", ...onHook(""), headers: JSON_TYPE, body: '{"name":"bench"}' }, 200),
    },
    { name: "POST /hooks/{id}/secret", run: call(h.rotateHookSecret, { method: "POST", ...onHook("/secret") }, 200) },
    { name: "POST /hooks/{id}/test (the receiver refuses)", run: call(h.testHook, { method: "POST", ...onHook("/test") }, 200) },
    { name: "GET /hooks/{id}/deliveries", run: call(h.listHookDeliveries, { method: "GET", ...onHook("/deliveries") }, 200) },
    {
      name: "DELETE /hooks/{id} (a hook made for it)",
      beforeEach: async () => {
        deleting = deleteHook(idOf(await createHook(`gone-${++n}`)()));
      },
      run: deferred(() => deleting),
    },
    {
      name: "GET /nodes/{id}/events",
      run: call(
        h.nodeEvents,
        {
          method: "GET",
          path: `/api/1.1/nodes/${node}/events`,
          route: `${R}/nodes/{identifier}/events`,
          pathParameters: { version: "1.1", identifier: node },
        },
        200,
      ),
    },
    {
      name: "GET /workflows/{id}/events",
      run: call(
        h.workflowEvents,
        {
          method: "GET",
          path: `/api/1.1/workflows/${workflow}/events`,
          route: `${R}/workflows/{id}/events`,
          pathParameters: { version: "1.1", id: workflow },
        },
        200,
      ),
    },
  ];
}
