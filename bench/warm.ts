import type { RouteFunction } from "../lib/http/routes";
import { DEMO_MACS } from "../lib/provisioning/demoNodes";
import { nodeIdForMac } from "../lib/provisioning/ids";
import { alternate, type Call, call, deferred, type Handler, type Handlers, measuring, then } from "./harness";
import { cloudInitCases } from "./warmCloudInit";
import { discoveryCases } from "./warmDiscovery";
import { hookCases } from "./warmHooks";
import { networkCases } from "./warmNetwork";
import { consoleCases, fileCases, libraryCases, operationsCases, pollerCases } from "./warmOperations";
import { relayCases } from "./warmRelays";
import { tokenCases } from "./warmTokens";

const JSON_TYPE = { "content-type": "application/json" };
const T = "/todo/api/v1.0/tasks";
const A = "/api/1.1";
const R = "/api/{version}";
const SPARE_MAC = "52:54:00:00:00:01";
const CENTOS = JSON.stringify({
  name: "Graph.InstallCentOS",
  options: { "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root" } },
});

/** The id of the task in a create's answer (the tasks are created without the public form). */
const taskIdOf = (body: string | undefined): string => String(JSON.parse(body ?? "{}").task.id);

/**
 * One realistic request per endpoint of both services, through the bundled handlers, with the
 * store kept the same size between calls (unmeasured set-up and clean-up). Reads come first:
 * the write cases leave workflow history behind.
 */
export async function warmCases(h: Handlers) {
  const [mac1, mac2] = DEMO_MACS;
  const n1 = nodeIdForMac(mac1);
  const n2 = nodeIdForMac(mac2);
  const v = (version = "1.1") => ({ version });

  // State: 10 tasks; both demo nodes with the noop OBM; an install waiting on node 1.
  for (let i = 1; i <= 10; i += 1) {
    await call(
      h.createTask,
      { method: "POST", path: T, route: T, headers: JSON_TYPE, body: JSON.stringify({ title: `Task ${i}`, description: "Milk, Cheese" }) },
      201,
    )();
  }
  for (const id of [n1, n2]) {
    await call(
      h.setNodeObm,
      {
        method: "POST",
        path: `${A}/nodes/${id}/obm`,
        route: `${R}/nodes/{identifier}/obm`,
        pathParameters: { ...v(), identifier: id },
        headers: JSON_TYPE,
        body: '{"service":"noop-obm-service","config":{}}',
      },
      201,
    )();
  }
  const started = await call(
    h.startWorkflow,
    {
      method: "POST",
      path: `${A}/nodes/${n1}/workflows`,
      route: `${R}/nodes/{identifier}/workflows`,
      pathParameters: { ...v(), identifier: n1 },
      headers: JSON_TYPE,
      body: CENTOS,
    },
    201,
  )();
  const instanceId = JSON.parse(started.body!).instanceId as string;
  const spare = await call(
    h.createNode,
    {
      method: "POST",
      path: `${A}/nodes`,
      route: `${R}/nodes`,
      pathParameters: v(),
      headers: JSON_TYPE,
      body: `{"name":"spare","identifiers":["${SPARE_MAC}"],"obmSettings":[{"service":"noop-obm-service","config":{}}]}`,
    },
    201,
  )();
  const n3 = JSON.parse(spare.body!).id as string;

  const startOn = (id: string, body = CENTOS) =>
    call(
      h.startWorkflow,
      {
        method: "POST",
        path: `${A}/nodes/${id}/workflows`,
        route: `${R}/nodes/{identifier}/workflows`,
        pathParameters: { ...v(), identifier: id },
        headers: JSON_TYPE,
        body,
      },
      201,
    );
  const cancelOn = (id: string) =>
    call(
      h.cancelActiveWorkflow,
      {
        method: "DELETE",
        path: `${A}/nodes/${id}/workflows/active`,
        route: `${R}/nodes/{identifier}/workflows/active`,
        pathParameters: { ...v(), identifier: id },
      },
      200,
    );

  /** The boot token the profile renders for a booting MAC (unmeasured: a set-up request). */
  const bootTokenOf = async (mac: string): Promise<string> => {
    const profile = await call(
      h.bootProfile,
      { method: "GET", path: `/api/current/profiles?macs=${mac}`, route: `${R}/profiles`, pathParameters: v("current") },
      200,
    )();
    return /token=([\w-]+)/.exec(profile.body ?? "")![1];
  };
  /** The notification of the workflow the case's set-up started (its token changes each time). */
  let notifying: Call<"notification"> = async () => {
    throw new Error("POST /notification: set up by beforeEach");
  };

  let lastNodeId = "";
  let lastTaskId = "";
  const deleteTask = (id: string) =>
    call(h.deleteTask, { method: "DELETE", path: `${T}/${id}`, route: `${T}/{id}`, pathParameters: { id } }, 200);
  let deleting = deleteTask("11");
  const tempNode = "ffffffffffffffffffffffff";

  const discovery = await discoveryCases(h);
  return [
    { name: "GET /tasks", run: call(h.listTasks, { method: "GET", path: T, route: T }, 200) },
    {
      name: "GET /tasks/{id}",
      run: call(h.getTask, { method: "GET", path: `${T}/5`, route: `${T}/{id}`, pathParameters: { id: "5" } }, 200),
    },
    {
      name: "POST /tasks",
      run: then(
        call(
          h.createTask,
          { method: "POST", path: T, route: T, headers: JSON_TYPE, body: '{"title":"Read a book","description":"The Hobbit"}' },
          201,
        ),
        (answer) => {
          lastTaskId = taskIdOf(answer.body);
        },
      ),
      afterEach: () => deleteTask(lastTaskId)(),
    },
    {
      name: "PUT /tasks/{id}",
      run: alternate(
        ...[true, false].map((done) =>
          call(
            h.updateTask,
            {
              method: "PUT",
              path: `${T}/5`,
              route: `${T}/{id}`,
              pathParameters: { id: "5" },
              headers: JSON_TYPE,
              body: `{"done":${done}}`,
            },
            200,
          ),
        ),
      ),
    },
    {
      name: "DELETE /tasks/{id}",
      beforeEach: async () => {
        const created = await call(h.createTask, { method: "POST", path: T, route: T, headers: JSON_TYPE, body: '{"title":"x"}' }, 201)();
        deleting = deleteTask(taskIdOf(created.body));
      },
      run: deferred(() => deleting),
    },
    { name: "GET /nodes", run: call(h.listNodes, { method: "GET", path: `${A}/nodes`, route: `${R}/nodes`, pathParameters: v() }, 200) },
    {
      name: "GET /nodes/{id}",
      run: call(
        h.getNode,
        { method: "GET", path: `${A}/nodes/${n2}`, route: `${R}/nodes/{identifier}`, pathParameters: { ...v(), identifier: n2 } },
        200,
      ),
    },
    {
      name: "POST /nodes",
      run: measuring(h.createNode, async () => {
        const answer = await call(
          h.createNode,
          {
            method: "POST",
            path: `${A}/nodes`,
            route: `${R}/nodes`,
            pathParameters: v(),
            headers: JSON_TYPE,
            body: '{"name":"rack-3","type":"compute","identifiers":["52:54:00:00:10:01"]}',
          },
          201,
        )();
        lastNodeId = JSON.parse(answer.body!).id;
        return answer;
      }),
      afterEach: () =>
        call(
          h.deleteNode,
          {
            method: "DELETE",
            path: `${A}/nodes/${lastNodeId}`,
            route: `${R}/nodes/{identifier}`,
            pathParameters: { ...v(), identifier: lastNodeId },
          },
          200,
        )(),
    },
    {
      name: "PATCH /nodes/{id}",
      run: alternate(
        ...["available", "reserved"].map((status) =>
          call(
            h.patchNode,
            {
              method: "PATCH",
              path: `${A}/nodes/${n3}`,
              route: `${R}/nodes/{identifier}`,
              pathParameters: { ...v(), identifier: n3 },
              headers: JSON_TYPE,
              body: `{"status":"${status}"}`,
            },
            200,
          ),
        ),
      ),
    },
    {
      name: "DELETE /nodes/{id}",
      beforeEach: () =>
        call(
          h.createNode,
          {
            method: "POST",
            path: `${A}/nodes`,
            route: `${R}/nodes`,
            pathParameters: v(),
            headers: JSON_TYPE,
            body: `{"name":"temp","id":"${tempNode}"}`,
          },
          201,
        )(),
      run: call(
        h.deleteNode,
        {
          method: "DELETE",
          path: `${A}/nodes/${tempNode}`,
          route: `${R}/nodes/{identifier}`,
          pathParameters: { ...v(), identifier: tempNode },
        },
        200,
      ),
    },
    {
      name: "GET /nodes/{id}/obm",
      run: call(
        h.getNodeObm,
        { method: "GET", path: `${A}/nodes/${n2}/obm`, route: `${R}/nodes/{identifier}/obm`, pathParameters: { ...v(), identifier: n2 } },
        200,
      ),
    },
    {
      name: "POST /nodes/{id}/obm",
      run: call(
        h.setNodeObm,
        {
          method: "POST",
          path: `${A}/nodes/${n3}/obm`,
          route: `${R}/nodes/{identifier}/obm`,
          pathParameters: { ...v(), identifier: n3 },
          headers: JSON_TYPE,
          body: '{"service":"noop-obm-service","config":{}}',
        },
        201,
      ),
    },
    {
      name: "GET /obms/library",
      run: call(h.obmLibrary, { method: "GET", path: `${A}/obms/library`, route: `${R}/obms/library`, pathParameters: v() }, 200),
    },
    {
      name: "GET /obms/library/{service}",
      run: call(
        h.obmLibraryEntry,
        {
          method: "GET",
          path: `${A}/obms/library/ipmi-obm-service`,
          route: `${R}/obms/library/{service}`,
          pathParameters: { ...v(), service: "ipmi-obm-service" },
        },
        200,
      ),
    },
    {
      name: "GET /workflows/tasks/library",
      run: call(
        h.taskLibrary,
        { method: "GET", path: `${A}/workflows/tasks/library`, route: `${R}/workflows/tasks/library`, pathParameters: v() },
        200,
      ),
    },
    {
      name: "GET /workflows/tasks",
      run: call(h.taskList, { method: "GET", path: `${A}/workflows/tasks`, route: `${R}/workflows/tasks`, pathParameters: v() }, 200),
    },
    {
      name: "PUT /workflows/tasks",
      run: call(
        h.defineTask,
        {
          method: "PUT",
          path: `${A}/workflows/tasks`,
          route: `${R}/workflows/tasks`,
          pathParameters: v(),
          headers: JSON_TYPE,
          body: JSON.stringify({
            friendlyName: "Hello",
            injectableName: "Task.Hello",
            implementsTask: "Task.Base.noop",
            options: {},
            properties: {},
          }),
        },
        200,
      ),
    },
    {
      name: "PUT /workflows",
      run: call(
        h.defineGraph,
        {
          method: "PUT",
          path: `${A}/workflows`,
          route: `${R}/workflows`,
          pathParameters: v(),
          headers: JSON_TYPE,
          body: JSON.stringify({ friendlyName: "Hello", injectableName: "Graph.Hello", tasks: [{ label: "a", taskName: "Task.noop" }] }),
        },
        200,
      ),
    },
    {
      name: "GET /workflows/library",
      run: call(
        h.graphLibrary,
        { method: "GET", path: `${A}/workflows/library`, route: `${R}/workflows/library`, pathParameters: v() },
        200,
      ),
    },
    {
      name: "GET /workflows/library/{name}",
      run: call(
        h.graphLibraryEntry,
        {
          method: "GET",
          path: `${A}/workflows/library/Graph.InstallCentOS`,
          route: `${R}/workflows/library/{name}`,
          pathParameters: { ...v(), name: "Graph.InstallCentOS" },
        },
        200,
      ),
    },
    {
      name: "GET /workflows",
      run: call(h.listWorkflows, { method: "GET", path: `${A}/workflows`, route: `${R}/workflows`, pathParameters: v() }, 200),
    },
    {
      name: "GET /workflows/{id}",
      run: call(
        h.getWorkflow,
        { method: "GET", path: `${A}/workflows/${instanceId}`, route: `${R}/workflows/{id}`, pathParameters: { ...v(), id: instanceId } },
        200,
      ),
    },
    {
      name: "GET /nodes/{id}/workflows",
      run: call(
        h.listNodeWorkflows,
        {
          method: "GET",
          path: `${A}/nodes/${n1}/workflows`,
          route: `${R}/nodes/{identifier}/workflows`,
          pathParameters: { ...v(), identifier: n1 },
        },
        200,
      ),
    },
    {
      name: "GET /nodes/{id}/workflows/active",
      run: call(
        h.getActiveWorkflow,
        {
          method: "GET",
          path: `${A}/nodes/${n1}/workflows/active`,
          route: `${R}/nodes/{identifier}/workflows/active`,
          pathParameters: { ...v(), identifier: n1 },
        },
        200,
      ),
    },
    {
      name: "GET /profiles/switch/{vendor}",
      run: call(
        h.switchProfile,
        {
          method: "GET",
          path: `/api/current/profiles/switch/arista?macs=${mac1}`,
          route: `${R}/profiles/switch/{vendor}`,
          pathParameters: { ...v("current"), vendor: "arista" },
        },
        200,
      ),
    },
    {
      name: "GET /profiles/loader?macs=",
      run: call(
        h.uefiLoader,
        { method: "GET", path: `/api/current/profiles/loader?macs=${mac1}`, route: `${R}/profiles/loader`, pathParameters: v("current") },
        200,
      ),
    },
    {
      name: "GET /profiles?macs=",
      run: call(
        h.bootProfile,
        {
          method: "GET",
          path: `/api/current/profiles?macs=${mac1}`,
          route: `${R}/profiles`,
          pathParameters: v("current"),
          sourceIp: "172.31.128.10",
        },
        200,
      ),
    },
    {
      name: "GET /templates/centos-ks",
      run: call(
        h.nodeTemplate,
        {
          method: "GET",
          path: `/api/current/templates/centos-ks?nodeId=${n1}&token=${await bootTokenOf(mac1)}`,
          route: `${R}/templates/{name}`,
          pathParameters: { ...v("current"), name: "centos-ks" },
        },
        200,
      ),
    },
    { name: "404 (fallback)", run: call(h.fallback, { method: "GET", path: "/api/1.1/nothing", route: "$default" }, 404) },
    // The contract, served.
    {
      name: "GET /todo/…/openapi.json",
      run: call(h.tasksOpenApi, { method: "GET", path: `/todo/api/v1.0/openapi.json`, route: "/todo/api/v1.0/openapi.json" }, 200),
    },
    { name: "GET /todo/…/docs", run: call(h.tasksDocs, { method: "GET", path: "/todo/api/v1.0/docs", route: "/todo/api/v1.0/docs" }, 200) },
    {
      name: "GET /todo/…/docs/redoc.js",
      run: call(h.tasksDocsViewer, { method: "GET", path: "/todo/api/v1.0/docs/redoc.js", route: "/todo/api/v1.0/docs/redoc.js" }, 200),
    },
    {
      name: "GET /openapi.json",
      run: call(h.provisioningOpenApi, { method: "GET", path: `${A}/openapi.json`, route: `${R}/openapi.json`, pathParameters: v() }, 200),
    },
    {
      name: "GET /docs",
      run: call(h.provisioningDocs, { method: "GET", path: `${A}/docs`, route: `${R}/docs`, pathParameters: v() }, 200),
    },
    {
      name: "GET /docs/redoc.js",
      run: call(
        h.provisioningDocsViewer,
        { method: "GET", path: `${A}/docs/redoc.js`, route: `${R}/docs/redoc.js`, pathParameters: v() },
        200,
      ),
    },
    {
      name: "GET /schemas",
      run: call(h.schemaList, { method: "GET", path: `${A}/schemas`, route: `${R}/schemas`, pathParameters: v() }, 200),
    },
    {
      name: "GET /schemas/{id}",
      run: call(
        h.schemaEntry,
        {
          method: "GET",
          path: `${A}/schemas/Serializables.V1.Node`,
          route: `${R}/schemas/{id}`,
          pathParameters: { ...v(), id: "Serializables.V1.Node" },
        },
        200,
      ),
    },
    { name: "POST /nodes/{id}/workflows", run: startOn(n2), afterEach: () => cancelOn(n2)() },
    { name: "DELETE /nodes/{id}/workflows/active", beforeEach: () => startOn(n2)(), run: cancelOn(n2) },
    {
      name: "POST /notification?nodeId=",
      beforeEach: async () => {
        await startOn(n3)();
        notifying = call(
          h.notification,
          {
            method: "POST",
            path: `/api/current/notification?nodeId=${n3}&token=${await bootTokenOf(SPARE_MAC)}`,
            route: `${R}/notification`,
            pathParameters: v("current"),
            headers: JSON_TYPE,
          },
          201,
        );
      },
      run: deferred(() => notifying),
    },
    // Last among the workflow writes: each run adds a finished workflow, which GET /workflows would list.
    {
      name: "POST /workflows",
      run: call(
        h.runGraph,
        {
          method: "POST",
          path: `${A}/workflows`,
          route: `${R}/workflows`,
          pathParameters: v(),
          headers: JSON_TYPE,
          body: '{"name":"Graph.noop-example"}',
        },
        201,
      ),
    },
    ...discovery,
    ...operationsCases(h),
    ...libraryCases(h),
    ...(await pollerCases(h)),
    ...(await fileCases(h)),
    ...consoleCases(h, await consoleScriptName(h)),
    ...(await relayCases(h)),
    ...(await networkCases(h)),
    ...(await cloudInitCases(h)),
    ...(await hookCases(h)),
    ...(await tokenCases(h)),
  ];
}

/** The script the console's page names (its name is its content's hash). */
async function consoleScriptName(h: Handlers): Promise<string> {
  const page = await call(h.consolePage, { method: "GET", path: "/console", route: "/console" }, 200)();
  return /assets\/(app-[0-9a-f]{12}\.js)/.exec(page.body ?? "")![1];
}

const baselineInput = {
  method: "POST",
  path: "/records/1",
  route: "/records/{id}",
  pathParameters: { id: "1" },
  headers: JSON_TYPE,
  body: '{"title":"Read a book"}',
};

/** The function a case measures, from its call's type. */
type MeasuredFunction<C> = C extends { run: Call<infer F> } ? F : never;
type Measured = MeasuredFunction<Awaited<ReturnType<typeof warmCases>>[number]>;
type Unmeasured = Exclude<RouteFunction, Measured>;
/**
 * Every registry entry (and the catch-all) has a warm case: a new endpoint without one fails the
 * typecheck here, naming its function. `string` would mean a case lost its function's type.
 */
export const EVERY_FUNCTION_MEASURED: string extends Measured
  ? "a case lost its function's type"
  : [Unmeasured] extends [never]
    ? true
    : { unmeasured: Unmeasured } = true;

/** The bare baseline, and the same work inside middy with no middleware, invoked the same way. */
export const baselineCases = (h: Record<"baseline" | "middyBaseline", Handler>) => [
  { name: "bare baseline", run: call(h.baseline, baselineInput, 200) },
  { name: "middy, no middleware (same work)", run: call(h.middyBaseline, baselineInput, 200) },
];
