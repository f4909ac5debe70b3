import { call, type Handlers, measuring } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/**
 * Subnets and network plans (issue 54), on a subnet and a node made for the bench. The plan's PUT
 * is measured as a redeploy's is: the same plan again, its address kept (a read, no allocation);
 * an allocation's own cost is bench/dynamodb.ts's (calls and units).
 */
export async function networkCases(h: Handlers) {
  const json = async (handler: Parameters<typeof call>[0], input: Parameters<typeof call>[1], expected: number) =>
    JSON.parse((await call(handler, input, expected)()).body ?? "null");
  const subnetBody = (name: string, octet: number) =>
    JSON.stringify({
      name,
      cidr: `10.${octet}.0.0/24`,
      gateway: `10.${octet}.0.1`,
      nameservers: [`10.${octet}.0.1`],
      ranges: [
        { kind: "boot", start: `10.${octet}.0.100`, end: `10.${octet}.0.199` },
        { kind: "pool", start: `10.${octet}.0.10`, end: `10.${octet}.0.99` },
      ],
    });
  const createInput = (name: string, octet: number) => ({
    method: "POST",
    path: `${A}/subnets`,
    route: `${R}/subnets`,
    pathParameters: v,
    headers: JSON_TYPE,
    body: subnetBody(name, octet),
  });
  const subnet = (await json(h.createSubnet, createInput("bench-subnet", 30), 201)).id as string;
  const onSubnet = (id: string, suffix = "") => ({
    path: `${A}/subnets/${id}${suffix}`,
    route: `${R}/subnets/{id}${suffix}`,
    pathParameters: { ...v, id },
  });
  const node = (
    await json(
      h.createNode,
      {
        method: "POST",
        path: `${A}/nodes`,
        route: `${R}/nodes`,
        pathParameters: v,
        headers: JSON_TYPE,
        body: '{"name":"bench-planned","identifiers":["52:54:00:be:54:01"]}',
      },
      201,
    )
  ).id as string;
  const onNode = {
    path: `${A}/nodes/${node}/network`,
    route: `${R}/nodes/{identifier}/network`,
    pathParameters: { ...v, identifier: node },
  };
  const plan = JSON.stringify({ interfaces: [{ name: "eno1", type: "ethernet", mac: "52:54:00:be:54:01", subnet, address: "auto" }] });
  const putPlan = call(h.putNetworkPlan, { method: "PUT", ...onNode, headers: JSON_TYPE, body: plan }, 200);
  await putPlan();
  let made = "";
  const removeMade = () => call(h.deleteSubnet, { method: "DELETE", ...onSubnet(made) }, 204)();
  const makeOne = async () => {
    made = (await json(h.createSubnet, createInput("bench-made", 31), 201)).id;
  };
  return [
    {
      name: "GET /subnets",
      run: call(h.listSubnets, { method: "GET", path: `${A}/subnets`, route: `${R}/subnets`, pathParameters: v }, 200),
    },
    { name: "GET /subnets/{id}", run: call(h.getSubnet, { method: "GET", ...onSubnet(subnet) }, 200) },
    {
      name: "PATCH /subnets/{id}",
      run: call(
        h.patchSubnet,
        { method: "PATCH", ...onSubnet(subnet), headers: JSON_TYPE, body: '{"searchDomains":["bench.example"]}' },
        200,
      ),
    },
    { name: "GET /subnets/{id}/addresses", run: call(h.listSubnetAddresses, { method: "GET", ...onSubnet(subnet, "/addresses") }, 200) },
    {
      name: "POST /subnets",
      run: measuring(h.createSubnet, async () => {
        const answer = await call(h.createSubnet, createInput("bench-made", 31), 201)();
        made = JSON.parse(answer.body ?? "{}").id;
        return answer;
      }),
      afterEach: removeMade,
    },
    { name: "DELETE /subnets/{id}", beforeEach: makeOne, run: measuring(h.deleteSubnet, removeMade) },
    { name: "GET /nodes/{id}/network", run: call(h.getNetworkPlan, { method: "GET", ...onNode }, 200) },
    { name: "PUT /nodes/{id}/network", run: putPlan },
    {
      name: "DELETE /nodes/{id}/network",
      run: call(h.deleteNetworkPlan, { method: "DELETE", ...onNode }, 204),
      afterEach: async () => {
        await putPlan();
      },
    },
  ];
}
