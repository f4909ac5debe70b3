import { nodeIdForMac } from "../lib/provisioning/ids";
import { type HandedOut, runCommands, sampleMachine } from "../scripts/microkernel";
import { call, type Handler, type Handlers, measuring } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const MAC = "52:54:00:00:00:02";
const v = (version = "1.1") => ({ version });

/**
 * The discovery routes' warm cases (microkernel, catalogs, SKUs, tags). Set-up: a machine
 * discovered through the handlers (its microkernel played with the sample machine), a SKU and
 * a tag that match it.
 */
export async function discoveryCases(h: Handlers) {
  const node = nodeIdForMac(MAC);
  const profile = await call(
    h.bootProfile,
    { method: "GET", path: `/api/current/profiles?macs=${MAC}`, route: `${R}/profiles`, pathParameters: v("current") },
    200,
  )();
  const token = /BOOT_TOKEN=(\S+)/.exec(profile.body ?? "")?.[1] ?? "";
  const tasks = { route: `${R}/tasks/{identifier}`, pathParameters: { ...v("current"), identifier: node } };
  const path = `/api/current/tasks/${node}?token=${token}`;
  const machine = sampleMachine(MAC);
  for (let round = 0; round < 20; round += 1) {
    const answer = await call(h.microkernelCommands, { method: "GET", path, ...tasks }, 200)();
    const body = JSON.parse(answer.body ?? "{}") as { tasks: HandedOut[] };
    if (body.tasks.some((task) => task.cmd === "sudo reboot")) break;
    runCommands(body.tasks, machine);
    await call(h.microkernelResults, { method: "POST", path, ...tasks, headers: JSON_TYPE, body: JSON.stringify(body) }, 201)();
  }

  /** A JSON create on a collection of /api/1.1 (`skus`, `tags`, `lookups`). */
  const postTo = <F extends string>(handler: Handler<F>, collection: string, body: string, expected: number) =>
    call(
      handler,
      { method: "POST", path: `${A}/${collection}`, route: `${R}/${collection}`, pathParameters: v(), headers: JSON_TYPE, body },
      expected,
    );
  const rule = '{"path":"dmi.System Information.Product Name","equals":"VirtualBox"}';
  const createSku = postTo(h.createSku, "skus", `{"name":"vbox","rules":[${rule}]}`, 200);
  const sku = JSON.parse((await createSku()).body ?? "{}").id as string;
  const skuPath = (suffix = "") => ({
    path: `${A}/skus/${sku}${suffix}`,
    route: `${R}/skus/{id}${suffix}`,
    pathParameters: { ...v(), id: sku },
  });
  const createTag = (name: string) => postTo(h.createTag, "tags", `{"name":"${name}","rules":[${rule}]}`, 201);
  const deleteTag = (name: string) =>
    call(h.deleteTag, { method: "DELETE", path: `${A}/tags/${name}`, route: `${R}/tags/{name}`, pathParameters: { ...v(), name } }, 204);
  await createTag("virtualbox")();
  const tagPath = (suffix = "") => ({
    path: `${A}/tags/virtualbox${suffix}`,
    route: `${R}/tags/{name}${suffix}`,
    pathParameters: { ...v(), name: "virtualbox" },
  });
  const nodeTags = { path: `${A}/nodes/${node}/tags`, route: `${R}/nodes/{identifier}/tags`, pathParameters: { ...v(), identifier: node } };
  const addTag = call(h.addNodeTags, { method: "PATCH", ...nodeTags, headers: JSON_TYPE, body: '{"tags":["bench"]}' }, 200);
  const catalogs = (
    await call(
      h.listNodeCatalogs,
      {
        method: "GET",
        path: `${A}/nodes/${node}/catalogs`,
        route: `${R}/nodes/{identifier}/catalogs`,
        pathParameters: { ...v(), identifier: node },
      },
      200,
    )()
  ).body;
  const catalogId = (JSON.parse(catalogs ?? "[]") as { id: string }[])[0].id;
  let skuToDelete = "";
  const createLookup = postTo(h.createLookup, "lookups", '{"macAddress":"08:00:27:00:be:01"}', 200);
  const lookupPath = (id: string) => ({ path: `${A}/lookups/${id}`, route: `${R}/lookups/{id}`, pathParameters: { ...v(), id } });
  const lookupId = JSON.parse(
    (await postTo(h.createLookup, "lookups", '{"macAddress":"08:00:27:00:be:00","ipAddress":"10.9.0.1"}', 200)()).body ?? "{}",
  ).id as string;
  let lookupToDelete = "";
  const whitelist = {
    path: `${A}/nodes/${MAC}/dhcp/whitelist`,
    route: `${R}/nodes/{identifier}/dhcp/whitelist`,
    pathParameters: { ...v(), identifier: MAC },
  };

  return [
    {
      name: "GET /api/…/tasks/bootstrap.js",
      run: call(
        h.microkernelBootstrap,
        {
          method: "GET",
          path: `/api/current/tasks/bootstrap.js?macAddress=${MAC}`,
          route: `${R}/tasks/bootstrap.js`,
          pathParameters: v("current"),
        },
        200,
      ),
    },
    // Discovery is over: nothing to hand out, and results for no task are taken and dropped.
    { name: "GET /api/…/tasks/{node} (microkernel)", run: call(h.microkernelCommands, { method: "GET", path, ...tasks }, 204) },
    {
      name: "POST /api/…/tasks/{node} (microkernel)",
      run: call(
        h.microkernelResults,
        { method: "POST", path, ...tasks, headers: JSON_TYPE, body: '{"tasks":[{"cmd":"sudo dmidecode","stdout":""}]}' },
        201,
      ),
    },
    {
      name: "GET /catalogs",
      run: call(h.listCatalogs, { method: "GET", path: `${A}/catalogs`, route: `${R}/catalogs`, pathParameters: v() }, 200),
    },
    {
      name: "GET /catalogs/{id}",
      run: call(
        h.getCatalog,
        { method: "GET", path: `${A}/catalogs/${catalogId}`, route: `${R}/catalogs/{id}`, pathParameters: { ...v(), id: catalogId } },
        200,
      ),
    },
    {
      name: "GET /nodes/{id}/catalogs",
      run: call(
        h.listNodeCatalogs,
        {
          method: "GET",
          path: `${A}/nodes/${node}/catalogs`,
          route: `${R}/nodes/{identifier}/catalogs`,
          pathParameters: { ...v(), identifier: node },
        },
        200,
      ),
    },
    {
      name: "GET /nodes/{id}/catalogs/{source}",
      run: call(
        h.getNodeCatalog,
        {
          method: "GET",
          path: `${A}/nodes/${node}/catalogs/dmi`,
          route: `${R}/nodes/{identifier}/catalogs/{source}`,
          pathParameters: { ...v(), identifier: node, source: "dmi" },
        },
        200,
      ),
    },
    { name: "GET /skus", run: call(h.listSkus, { method: "GET", path: `${A}/skus`, route: `${R}/skus`, pathParameters: v() }, 200) },
    { name: "GET /skus/{id}", run: call(h.getSku, { method: "GET", ...skuPath() }, 200) },
    { name: "GET /skus/{id}/nodes", run: call(h.listSkuNodes, { method: "GET", ...skuPath("/nodes") }, 200) },
    {
      name: "POST /skus",
      run: measuring(h.createSku, async () => {
        const answer = await createSku();
        skuToDelete = JSON.parse(answer.body ?? "{}").id;
        return answer;
      }),
      afterEach: () =>
        call(
          h.deleteSku,
          { method: "DELETE", path: `${A}/skus/${skuToDelete}`, route: `${R}/skus/{id}`, pathParameters: { ...v(), id: skuToDelete } },
          204,
        )(),
    },
    {
      name: "PATCH /skus/{id}",
      run: call(h.patchSku, { method: "PATCH", ...skuPath(), headers: JSON_TYPE, body: '{"name":"vbox"}' }, 200),
    },
    {
      name: "DELETE /skus/{id}",
      beforeEach: async () => {
        skuToDelete = JSON.parse((await createSku()).body ?? "{}").id;
      },
      run: measuring(h.deleteSku, async () =>
        call(
          h.deleteSku,
          { method: "DELETE", path: `${A}/skus/${skuToDelete}`, route: `${R}/skus/{id}`, pathParameters: { ...v(), id: skuToDelete } },
          204,
        )(),
      ),
    },
    { name: "GET /tags", run: call(h.listTags, { method: "GET", path: `${A}/tags`, route: `${R}/tags`, pathParameters: v() }, 200) },
    { name: "GET /tags/{name}", run: call(h.getTag, { method: "GET", ...tagPath() }, 200) },
    { name: "GET /tags/{name}/nodes", run: call(h.listTagNodes, { method: "GET", ...tagPath("/nodes") }, 200) },
    { name: "POST /tags", run: createTag("bench"), afterEach: () => deleteTag("bench")() },
    { name: "DELETE /tags/{name}", beforeEach: () => createTag("bench")(), run: deleteTag("bench") },
    {
      name: "POST /tags/{name}/nodes/workflows",
      run: call(
        h.runTagWorkflow,
        { method: "POST", ...tagPath("/nodes/workflows"), path: `${A}/tags/virtualbox/nodes/workflows?name=Graph.noop-example` },
        202,
      ),
    },
    { name: "GET /nodes/{id}/tags", run: call(h.getNodeTags, { method: "GET", ...nodeTags }, 200) },
    { name: "PATCH /nodes/{id}/tags", run: addTag },
    {
      name: "DELETE /nodes/{id}/tags/{tag}",
      beforeEach: () => addTag(),
      run: call(
        h.removeNodeTag,
        {
          method: "DELETE",
          path: `${A}/nodes/${node}/tags/bench`,
          route: `${R}/nodes/{identifier}/tags/{tag}`,
          pathParameters: { ...v(), identifier: node, tag: "bench" },
        },
        200,
      ),
    },
    {
      name: "GET /lookups?q=",
      run: call(h.listLookups, { method: "GET", path: `${A}/lookups?q=${node}`, route: `${R}/lookups`, pathParameters: v() }, 200),
    },
    { name: "GET /lookups/{id}", run: call(h.getLookup, { method: "GET", ...lookupPath(lookupId) }, 200) },
    {
      name: "PATCH /lookups/{id}",
      run: call(h.patchLookup, { method: "PATCH", ...lookupPath(lookupId), headers: JSON_TYPE, body: '{"ipAddress":"10.9.0.1"}' }, 200),
    },
    {
      name: "POST /lookups",
      run: measuring(h.createLookup, async () => {
        const answer = await createLookup();
        lookupToDelete = JSON.parse(answer.body ?? "{}").id;
        return answer;
      }),
      afterEach: () => call(h.deleteLookup, { method: "DELETE", ...lookupPath(lookupToDelete) }, 200)(),
    },
    {
      name: "DELETE /lookups/{id}",
      beforeEach: async () => {
        lookupToDelete = JSON.parse((await createLookup()).body ?? "{}").id;
      },
      run: measuring(h.deleteLookup, async () => call(h.deleteLookup, { method: "DELETE", ...lookupPath(lookupToDelete) }, 200)()),
    },
    { name: "POST /nodes/{mac}/dhcp/whitelist", run: call(h.addToWhitelist, { method: "POST", ...whitelist }, 201) },
    { name: "DELETE /nodes/{mac}/dhcp/whitelist", run: call(h.removeFromWhitelist, { method: "DELETE", ...whitelist }, 204) },
  ];
}
