import { call, type Handlers } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/**
 * cloud-init's seed for one installed system (what each machine reads on each boot: the cost of
 * serving one machine's metadata), what a machine reports (events, log chunks), what an operator
 * reads of it (the timeline, a log), and an operator's instance credential and user-data.
 */
export async function cloudInitCases(h: Handlers) {
  const created = await call(
    h.createNode,
    {
      method: "POST",
      path: `${A}/nodes`,
      route: `${R}/nodes`,
      pathParameters: v,
      headers: JSON_TYPE,
      body: '{"name":"bench-cloud","identifiers":["52:54:00:be:c1:01"]}',
    },
    201,
  )();
  const node = JSON.parse(created.body ?? "{}").id as string;
  const onNode = (suffix: string) => ({
    path: `${A}/nodes/${node}${suffix}`,
    route: `${R}/nodes/{identifier}${suffix}`,
    pathParameters: { ...v, identifier: node },
  });
  const issue = call(h.issueInstanceCredential, { method: "POST", ...onNode("/instance-credential"), headers: JSON_TYPE, body: "{}" }, 201);
  const { credential } = JSON.parse((await issue()).body ?? "{}") as { credential: string };
  const userData = JSON.stringify({ userData: "#cloud-config\nhostname: bench-cloud\n" });
  const seed = (document: string) =>
    call(
      h.nocloudSeed,
      {
        method: "GET",
        path: `${A}/nocloud/${credential}/${document}`,
        route: `${R}/nocloud/{credential}/{path+}`,
        pathParameters: { ...v, credential, path: document },
      },
      200,
    );
  await call(h.putUserData, { method: "PUT", ...onNode("/user-data"), headers: JSON_TYPE, body: userData }, 200)();
  const report = {
    method: "POST",
    path: `${A}/reports/${credential}`,
    route: `${R}/reports/{credential}`,
    pathParameters: { ...v, credential },
    headers: JSON_TYPE,
    body: JSON.stringify({
      event_type: "finish",
      name: "init-network/config-ssh",
      description: "running config-ssh",
      origin: "cloudinit",
      result: "SUCCESS",
      timestamp: 1764000000.5,
    }),
  };
  const chunk = {
    method: "POST",
    path: `${A}/reports/${credential}/logs/cloud-init.log?seq=1`,
    route: `${R}/reports/{credential}/logs/{name}`,
    pathParameters: { ...v, credential, name: "cloud-init.log" },
    headers: { "content-type": "text/plain" },
    body: "2026-11-24 14:05:19,123 - util.py[DEBUG]: Cloud-init v. 22.4.2 running 'init-local'\n".repeat(64),
  };
  await call(h.postLogChunk, chunk, 201)();
  return [
    // One case per function: the seed's documents are one function, and meta-data is what every boot reads first.
    { name: "GET /nocloud/{credential}/meta-data", run: seed("meta-data") },
    {
      name: "PUT /nodes/{id}/user-data",
      run: call(h.putUserData, { method: "PUT", ...onNode("/user-data"), headers: JSON_TYPE, body: userData }, 200),
    },
    { name: "GET /nodes/{id}/user-data", run: call(h.getUserData, { method: "GET", ...onNode("/user-data") }, 200) },
    // A report: kept (a full report drops its oldest after the first 50), and no change to a workflow.
    { name: "POST /reports/{credential} (a cloud-init event)", run: call(h.postReport, report, 200) },
    // The same chunk again: each (name, seq) is accepted once, so a timed loop measures the repeat; the first one's write is in the cost.
    { name: "POST /reports/{credential}/logs/{name} (a chunk sent again)", run: call(h.postLogChunk, chunk, 200) },
    { name: "GET /nodes/{id}/timeline", run: call(h.nodeTimeline, { method: "GET", ...onNode("/timeline") }, 200) },
    {
      name: "GET /nodes/{id}/install-logs/{name} (5 KiB)",
      run: call(
        h.getInstallLog,
        {
          method: "GET",
          path: `${A}/nodes/${node}/install-logs/cloud-init.log`,
          route: `${R}/nodes/{identifier}/install-logs/{name}`,
          pathParameters: { ...v, identifier: node, name: "cloud-init.log" },
        },
        200,
      ),
    },
    // Last: each new credential ends the one the seed cases use.
    { name: "POST /nodes/{id}/instance-credential", run: issue },
  ];
}
