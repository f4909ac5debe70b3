import { DEMO_MACS } from "../lib/provisioning/demoNodes";
import { nodeIdForMac } from "../lib/provisioning/ids";
import { call, type Handlers, measuring } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/** Config, versions, SSH settings and OBM identify, on the second demo node (its OBM service is noop). */
export function operationsCases(h: Handlers) {
  const node = nodeIdForMac(DEMO_MACS[1]);
  const onNode = (suffix: string) => ({
    path: `${A}/nodes/${node}${suffix}`,
    route: `${R}/nodes/{identifier}${suffix}`,
    pathParameters: { ...v, identifier: node },
  });
  const config = { path: `${A}/config`, route: `${R}/config`, pathParameters: v };
  return [
    { name: "GET /config", run: call(h.getConfig, { method: "GET", ...config }, 200) },
    {
      name: "PATCH /config",
      run: call(h.patchConfig, { method: "PATCH", ...config, headers: JSON_TYPE, body: '{"logColorEnable":true}' }, 200),
    },
    {
      name: "GET /versions",
      run: call(h.getVersions, { method: "GET", path: `${A}/versions`, route: `${R}/versions`, pathParameters: v }, 200),
    },
    {
      name: "POST /nodes/{id}/ssh",
      run: call(
        h.setNodeSsh,
        { method: "POST", ...onNode("/ssh"), headers: JSON_TYPE, body: '{"host":"10.1.1.5","user":"root","password":"pw"}' },
        201,
      ),
    },
    { name: "GET /nodes/{id}/ssh", run: call(h.getNodeSsh, { method: "GET", ...onNode("/ssh") }, 200) },
    {
      name: "POST /nodes/{id}/obm/identify",
      run: call(h.setNodeIdentify, { method: "POST", ...onNode("/obm/identify"), headers: JSON_TYPE, body: '{"value":true}' }, 200),
    },
    { name: "GET /nodes/{id}/obm/identify", run: call(h.getNodeIdentify, { method: "GET", ...onNode("/obm/identify") }, 200) },
    { name: "GET /nodes/{id}/actions", run: call(h.listProvisionActions, { method: "GET", ...onNode("/actions") }, 200) },
    // A refused action (the demo node is discovered, not allocated): the node's read and the state
    // check, the cost of every action's first step; an accepted one changes the node, so it cannot repeat.
    {
      name: "POST /nodes/{id}/actions (409)",
      run: call(h.runProvisionAction, { method: "POST", ...onNode("/actions"), headers: JSON_TYPE, body: '{"action":"deallocate"}' }, 409),
    },
  ];
}

/** The template and profile library: reads of a built-in, a put one, the lists. */
export function libraryCases(h: Handlers) {
  const entry = (kind: "templates" | "profiles", name: string) => ({
    path: `${A}/${kind}/library/${name}`,
    route: `${R}/${kind}/library/{name}`,
    pathParameters: { ...v, name },
  });
  const list = (kind: "templates" | "profiles") => ({ path: `${A}/${kind}/library`, route: `${R}/${kind}/library`, pathParameters: v });
  const text = { "content-type": "text/plain" };
  return [
    { name: "GET /templates/library", run: call(h.templateLibrary, { method: "GET", ...list("templates") }, 200) },
    {
      name: "GET /templates/library/{name}",
      run: call(h.templateLibraryEntry, { method: "GET", ...entry("templates", "centos-ks") }, 200),
    },
    {
      name: "PUT /templates/library/{name}",
      run: call(h.putTemplate, { method: "PUT", ...entry("templates", "site-ks"), headers: text, body: "url --url=<%=repo%>" }, 200),
    },
    {
      // Put again before each removal, so that every run removes one.
      name: "DELETE /templates/library/{name}",
      beforeEach: call(h.putTemplate, { method: "PUT", ...entry("templates", "gone-ks"), headers: text, body: "# gone" }, 200),
      run: call(h.deleteTemplate, { method: "DELETE", ...entry("templates", "gone-ks") }, 200),
    },
    { name: "GET /profiles/library", run: call(h.profileLibrary, { method: "GET", ...list("profiles") }, 200) },
    { name: "GET /profiles/library/{name}", run: call(h.profileLibraryEntry, { method: "GET", ...entry("profiles", "linux.ipxe") }, 200) },
    {
      name: "PUT /profiles/library/{name}",
      run: call(h.putProfile, { method: "PUT", ...entry("profiles", "site.ipxe"), headers: text, body: "echo <%=nodeId%>" }, 200),
    },
  ];
}

/** The pollers: a noop IPMI poller on the second demo node, run once by the first read of its data. */
export async function pollerCases(h: Handlers) {
  const node = nodeIdForMac(DEMO_MACS[1]);
  const list = { path: `${A}/pollers`, route: `${R}/pollers`, pathParameters: v };
  const body = `{"type":"ipmi","node":"${node}","pollInterval":3600000,"config":{"command":"sdr"}}`;
  const create = call(h.createPoller, { method: "POST", ...list, headers: JSON_TYPE, body }, 200);
  const idOf = (answer: { body?: string }) => JSON.parse(answer.body ?? "{}").id as string;
  const id = idOf(await create());
  const onPoller = (poller: string, suffix = "") => ({
    path: `${A}/pollers/${poller}${suffix}`,
    route: `${R}/pollers/{id}${suffix}`,
    pathParameters: { ...v, id: poller },
  });
  const remove = (poller: string) => call(h.deletePoller, { method: "DELETE", ...onPoller(poller) }, 204);
  let made = "";
  return [
    {
      name: "GET /pollers/library",
      run: call(h.pollerLibrary, { method: "GET", path: `${A}/pollers/library`, route: `${R}/pollers/library`, pathParameters: v }, 200),
    },
    {
      name: "GET /pollers/library/{name}",
      run: call(
        h.pollerLibraryEntry,
        { method: "GET", path: `${A}/pollers/library/ipmi`, route: `${R}/pollers/library/{name}`, pathParameters: { ...v, name: "ipmi" } },
        200,
      ),
    },
    { name: "GET /pollers", run: call(h.listPollers, { method: "GET", ...list }, 200) },
    { name: "GET /pollers/{id}", run: call(h.getPoller, { method: "GET", ...onPoller(id) }, 200) },
    { name: "GET /pollers/{id}/data", run: call(h.pollerData, { method: "GET", ...onPoller(id, "/data") }, 200) },
    { name: "GET /pollers/{id}/data/current", run: call(h.currentPollerData, { method: "GET", ...onPoller(id, "/data/current") }, 200) },
    { name: "PATCH /pollers/{id}/pause", run: call(h.pausePoller, { method: "PATCH", ...onPoller(id, "/pause") }, 200) },
    { name: "PATCH /pollers/{id}/resume", run: call(h.resumePoller, { method: "PATCH", ...onPoller(id, "/resume") }, 200) },
    {
      name: "PATCH /pollers/{id}",
      run: call(h.patchPoller, { method: "PATCH", ...onPoller(id), headers: JSON_TYPE, body: '{"paused":false}' }, 200),
    },
    {
      name: "GET /nodes/{id}/pollers",
      run: call(
        h.listNodePollers,
        {
          method: "GET",
          path: `${A}/nodes/${node}/pollers`,
          route: `${R}/nodes/{identifier}/pollers`,
          pathParameters: { ...v, identifier: node },
        },
        200,
      ),
    },
    {
      name: "POST /pollers",
      run: measuring(h.createPoller, async () => {
        const answer = await create();
        made = idOf(answer);
        return answer;
      }),
      afterEach: () => remove(made)(),
    },
    {
      name: "DELETE /pollers/{id}",
      beforeEach: async () => {
        made = idOf(await create());
      },
      run: measuring(h.deletePoller, async () => remove(made)()),
    },
  ];
}

/** The file store: a 64 KiB file read by uuid, by name and as metadata; puts replace a file of their own. */
export async function fileCases(h: Handlers) {
  const octets = { "content-type": "application/octet-stream" };
  const body = Buffer.alloc(64 * 1024, 7).toString("base64");
  const onFile = (name: string, route = "{name}", suffix = "") => ({
    path: `${A}/files/${route.replace("{name}", name)}${suffix}`,
    route: `${R}/files/${route}${suffix}`,
    pathParameters: { ...v, name },
  });
  const put = (name: string) => call(h.putFile, { method: "PUT", ...onFile(name), headers: octets, body, isBase64Encoded: true }, 201);
  const uuid = (await put("bench.img")()).body as string;
  return [
    { name: "PUT /files/{name} (64 KiB)", run: put("bench-put.img") },
    { name: "GET /files/{uuid} (64 KiB)", run: call(h.getFile, { method: "GET", ...onFile(uuid) }, 200) },
    { name: "GET /files/{name}/latest", run: call(h.latestFile, { method: "GET", ...onFile("bench.img", "{name}", "/latest") }, 200) },
    {
      name: "GET /common/{name}",
      run: call(
        h.commonFile,
        { method: "GET", path: "/common/bench.img", route: "/common/{name}", pathParameters: { name: "bench.img" } },
        200,
      ),
    },
    { name: "GET /files/md5/{name}/latest", run: call(h.fileMd5, { method: "GET", ...onFile("bench.img", "md5/{name}", "/latest") }, 200) },
    { name: "GET /files/metadata/{name}", run: call(h.fileMetadata, { method: "GET", ...onFile("bench.img", "metadata/{name}") }, 200) },
    {
      name: "GET /files/list/all",
      run: call(h.listFiles, { method: "GET", path: `${A}/files/list/all`, route: `${R}/files/list/all`, pathParameters: v }, 200),
    },
    {
      name: "DELETE /files/{name}",
      beforeEach: async () => {
        await put("bench-delete.img")();
      },
      run: call(h.deleteFile, { method: "DELETE", ...onFile("bench-delete.img") }, 204),
    },
  ];
}

/** The operator console: its page and its script (the browser bundle, served from memory). */
export function consoleCases(h: Handlers, scriptName: string) {
  return [
    { name: "GET /console", run: call(h.consolePage, { method: "GET", path: "/console", route: "/console" }, 200) },
    { name: "GET /docs (RackHD: 302 to the API docs)", run: call(h.rackhdDocs, { method: "GET", path: "/docs", route: "/docs" }, 302) },
    // The bench runs with no identity provider: the sign-in's two routes answer 404 at once (their cost with one is bench/analysis.md's).
    {
      name: "GET /console/signin (no provider: 404)",
      run: call(h.consoleSignIn, { method: "GET", path: "/console/signin", route: "/console/signin" }, 404),
    },
    {
      name: "GET /console/callback (no provider: 404)",
      run: call(h.consoleCallback, { method: "GET", path: "/console/callback", route: "/console/callback" }, 404),
    },
    {
      name: "GET /console/session",
      run: call(h.consoleSession, { method: "GET", path: "/console/session", route: "/console/session" }, 200),
    },
    {
      name: "POST /console/signout",
      run: call(h.consoleSignOut, { method: "POST", path: "/console/signout", route: "/console/signout" }, 204),
    },
    {
      name: "GET /console/assets/{name}",
      run: call(
        h.consoleAsset,
        { method: "GET", path: `/console/assets/${scriptName}`, route: "/console/assets/{name}", pathParameters: { name: scriptName } },
        200,
      ),
    },
  ];
}
