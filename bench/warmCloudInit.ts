import { call, type Handlers } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/**
 * cloud-init's seed for one installed system (what each machine reads on each boot: the cost of
 * serving one machine's metadata) and an operator's instance credential and user-data.
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
        route: `${R}/nocloud/{credential}/{document}`,
        pathParameters: { ...v, credential, document },
      },
      200,
    );
  await call(h.putUserData, { method: "PUT", ...onNode("/user-data"), headers: JSON_TYPE, body: userData }, 200)();
  return [
    // One case per function: the seed's documents are one function, and meta-data is what every boot reads first.
    { name: "GET /nocloud/{credential}/meta-data", run: seed("meta-data") },
    {
      name: "PUT /nodes/{id}/user-data",
      run: call(h.putUserData, { method: "PUT", ...onNode("/user-data"), headers: JSON_TYPE, body: userData }, 200),
    },
    { name: "GET /nodes/{id}/user-data", run: call(h.getUserData, { method: "GET", ...onNode("/user-data") }, 200) },
    // Last: each new credential ends the one the seed cases use.
    { name: "POST /nodes/{id}/instance-credential", run: issue },
  ];
}
