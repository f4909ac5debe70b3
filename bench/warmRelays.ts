import { call, type Handlers, measuring } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/**
 * Sites, relay credentials, a node's site and power, and the relay's own calls (lease, result),
 * on a site made for the bench with one IPMI node. Each power request adds a job (jobs are kept as
 * the audit), so the lease and result cases run last, on few jobs.
 */
export async function relayCases(h: Handlers) {
  const post = async (
    handler: Parameters<typeof call>[0],
    path: string,
    route: string,
    params: Record<string, string>,
    body: unknown,
    expected = 201,
  ) =>
    JSON.parse(
      (
        await call(
          handler,
          { method: "POST", path, route, pathParameters: { ...v, ...params }, headers: JSON_TYPE, body: JSON.stringify(body) },
          expected,
        )()
      ).body ?? "null",
    );
  const site = (await post(h.createSite, `${A}/sites`, `${R}/sites`, {}, { name: "bench-site" })).id as string;
  const onSite = (suffix = "", extra: Record<string, string> = {}) => ({
    path: `${A}/sites/${site}${suffix.replace("{relayId}", extra.relayId ?? "")}`,
    route: `${R}/sites/{id}${suffix}`,
    pathParameters: { ...v, id: site, ...extra },
  });
  const relays = `${A}/sites/${site}/relays`;
  const token = (await post(h.createRelayCredential, relays, `${R}/sites/{id}/relays`, { id: site }, { name: "bench-relay" }))
    .token as string;
  const node = (await post(h.createNode, `${A}/nodes`, `${R}/nodes`, {}, { name: "bench-ipmi", identifiers: ["52:54:00:be:0c:01"] }))
    .id as string;
  const onNode = (suffix: string) => ({
    path: `${A}/nodes/${node}${suffix}`,
    route: `${R}/nodes/{identifier}${suffix}`,
    pathParameters: { ...v, identifier: node },
  });
  await call(
    h.setNodeObm,
    {
      method: "POST",
      ...onNode("/obm"),
      headers: JSON_TYPE,
      body: '{"service":"ipmi-obm-service","config":{"host":"10.1.0.9","user":"admin","password":"secret"}}',
    },
    201,
  )();
  const putSite = call(h.setNodeSite, { method: "PUT", ...onNode("/site"), headers: JSON_TYPE, body: JSON.stringify({ site }) }, 200);
  await putSite();

  const relay = { ...JSON_TYPE, authorization: `Bearer ${token}` };
  const power = call(h.nodeAction, { method: "POST", ...onNode("/power"), headers: JSON_TYPE, body: '{"action":"status"}' }, 202);
  const lease = call(
    h.leaseRelayJobs,
    { method: "POST", path: `${A}/relay/jobs/lease`, route: `${R}/relay/jobs/lease`, pathParameters: v, headers: relay, body: '{"max":1}' },
    200,
  );
  let leased = { id: "", lease: { id: "" } };
  const leaseOne = async () => {
    await power();
    leased = JSON.parse((await lease()).body ?? "[]")[0];
  };
  const report = () =>
    call(
      h.reportRelayJob,
      {
        method: "POST",
        path: `${A}/relay/jobs/${leased.id}/result`,
        route: `${R}/relay/jobs/{id}/result`,
        pathParameters: { ...v, id: leased.id },
        headers: relay,
        body: JSON.stringify({ leaseId: leased.lease.id, ok: true, output: "Chassis Power is on" }),
      },
      200,
    )();
  let made = "";
  let madeRelay = "";
  const removeSite = (id: () => string) =>
    measuring(h.deleteSite, () =>
      call(
        h.deleteSite,
        { method: "DELETE", path: `${A}/sites/${id()}`, route: `${R}/sites/{id}`, pathParameters: { ...v, id: id() } },
        200,
      )(),
    );
  const removeRelay = () =>
    call(h.deleteRelayCredential, { method: "DELETE", ...onSite("/relays/{relayId}", { relayId: madeRelay }) }, 200)();

  return [
    { name: "GET /sites", run: call(h.listSites, { method: "GET", path: `${A}/sites`, route: `${R}/sites`, pathParameters: v }, 200) },
    { name: "GET /sites/{id}", run: call(h.getSite, { method: "GET", ...onSite() }, 200) },
    { name: "GET /sites/{id}/relays", run: call(h.listRelayCredentials, { method: "GET", ...onSite("/relays") }, 200) },
    {
      name: "POST /sites",
      run: measuring(h.createSite, async () => {
        const answer = await call(
          h.createSite,
          { method: "POST", path: `${A}/sites`, route: `${R}/sites`, pathParameters: v, headers: JSON_TYPE, body: '{"name":"bench-made"}' },
          201,
        )();
        made = JSON.parse(answer.body ?? "{}").id;
        return answer;
      }),
      afterEach: () => removeSite(() => made)(),
    },
    {
      name: "DELETE /sites/{id}",
      beforeEach: async () => {
        made = (await post(h.createSite, `${A}/sites`, `${R}/sites`, {}, { name: "bench-made" })).id;
      },
      run: removeSite(() => made),
    },
    {
      name: "POST /sites/{id}/relays",
      run: measuring(h.createRelayCredential, async () => {
        const answer = await call(h.createRelayCredential, { method: "POST", ...onSite("/relays"), headers: JSON_TYPE, body: "{}" }, 201)();
        madeRelay = JSON.parse(answer.body ?? "{}").id;
        return answer;
      }),
      afterEach: removeRelay,
    },
    {
      name: "DELETE /sites/{id}/relays/{relayId}",
      beforeEach: async () => {
        madeRelay = (await post(h.createRelayCredential, relays, `${R}/sites/{id}/relays`, { id: site }, {})).id;
      },
      run: measuring(h.deleteRelayCredential, removeRelay),
    },
    { name: "PUT /nodes/{id}/site", run: putSite },
    { name: "POST /nodes/{id}/power", run: power },
    { name: "GET /sites/{id}/jobs", run: call(h.listSiteJobs, { method: "GET", ...onSite("/jobs") }, 200) },
    { name: "POST /relay/jobs/lease", beforeEach: () => power(), run: lease },
    { name: "POST /relay/jobs/{id}/result", beforeEach: leaseOne, run: measuring(h.reportRelayJob, report) },
    {
      name: "POST /relay/jobs/{id}/acting",
      beforeEach: leaseOne,
      run: measuring(h.relayJobActing, () =>
        call(
          h.relayJobActing,
          {
            method: "POST",
            path: `${A}/relay/jobs/${leased.id}/acting`,
            route: `${R}/relay/jobs/{id}/acting`,
            pathParameters: { ...v, id: leased.id },
            headers: relay,
            body: JSON.stringify({ leaseId: leased.lease.id }),
          },
          200,
        )(),
      ),
      afterEach: report,
    },
  ];
}
