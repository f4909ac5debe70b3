import { createServer, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { readSettings } from "../../../lib/config/settings";
import { invocationOf, runAs } from "../../../lib/invocation";
import { secretOf } from "../../../lib/provisioning/hooks/hook";
import { buildNode, parseNewNode } from "../../../lib/provisioning/nodes/node";
import { meterCapacity, unitsOf } from "../../../lib/store/dynamodb/capacity";
import { startLocalDelivery } from "../../../lib/store/localDelivery";
import { memoryProvisioningStores } from "../../../lib/store/memory/provisioningStores";
import { resetProcessSingleton } from "../../../lib/store/processSingleton";

const KEY = "unit-test-hook-signing-key-0123456789";

describe("local delivery (npm start's stand-ins for the stream and the queue)", () => {
  let receiver: Server;
  const received: { headers: Record<string, string>; body: string }[] = [];
  const status = 500;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push({ headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])), body });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));
  afterEach(() => resetProcessSingleton("localDelivery"));

  it("delivers a change's event to its hook, signed, and retries a failure after its wait", async () => {
    const stores = memoryProvisioningStores({ capacity: 1000, maxBytes: 1 << 24 });
    const queue = startLocalDelivery(
      stores,
      readSettings({ HOOK_SIGNING_KEY: KEY, HOOK_RETRY_SECONDS: "0.05", HOOK_PRIVATE_TARGETS: "on", HOOK_HTTP: "on" }),
    )!;
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/in`;
    const stamp = new Date().toISOString();
    await stores.hooks.create({
      id: "h1",
      url,
      filters: [],
      events: ["node.added"],
      secretGeneration: 1,
      createdAt: stamp,
      updatedAt: stamp,
    });
    await stores.nodes.create(buildNode(parseNewNode({ name: "n" }), "65f0c0ffee0123456789abcd", new Date(stamp)));
    for (let tries = 0; tries < 100 && (received.length < 2 || queue.pending > 0); tries++) await new Promise((r) => setTimeout(r, 20));
    // The first attempt failed (500), the retry came 50 ms later with the same id.
    expect(received).toHaveLength(2);
    expect(received[0].headers["webhook-id"]).toBe(received[1].headers["webhook-id"]);
    expect(new Webhook(secretOf(KEY, "h1", 1)).verify(received[1].body, received[1].headers)).toMatchObject({
      type: "node",
      action: "added",
    });
    expect((await stores.deliveries.recent("h1", 10)).map((delivery) => delivery.attempt)).toEqual([2, 1]);
    // Without a signing key nothing is started.
    resetProcessSingleton("localDelivery");
    expect(startLocalDelivery(stores, readSettings({}))).toBeUndefined();
  });
});

describe("the capacity every DynamoDB call reports (issue 28)", () => {
  it("reads reads and writes from an answer's ConsumedCapacity, one or many", () => {
    expect(unitsOf("GetCommand", { ConsumedCapacity: { CapacityUnits: 0.5 } })).toEqual({ read: 0.5, write: 0 });
    expect(unitsOf("TransactWriteCommand", { ConsumedCapacity: [{ CapacityUnits: 4 }, { WriteCapacityUnits: 2 }] })).toEqual({
      read: 0,
      write: 6,
    });
    expect(unitsOf("QueryCommand", { ConsumedCapacity: { ReadCapacityUnits: 1.5 } })).toEqual({ read: 1.5, write: 0 });
    expect(unitsOf("PutCommand", {})).toEqual({ read: 0, write: 0 });
    expect(unitsOf("PutCommand", undefined)).toEqual({ read: 0, write: 0 });
  });

  it("asks every call for its capacity and counts it on the running invocation", async () => {
    let middleware:
      | ((
          next: (args: unknown) => Promise<unknown>,
          context: { commandName: string },
        ) => (args: { input: Record<string, unknown> }) => Promise<unknown>)
      | undefined;
    const client = { middlewareStack: { add: (fn: typeof middleware) => (middleware = fn) } };
    meterCapacity(client as never);
    const invocation = invocationOf("f", {});
    const input: Record<string, unknown> = {};
    await runAs(invocation, () =>
      middleware!(async () => ({ output: { ConsumedCapacity: { CapacityUnits: 2 } } }), { commandName: "UpdateCommand" })({ input }),
    );
    expect(input.ReturnConsumedCapacity).toBe("TOTAL");
    expect(Object.fromEntries(invocation.counts)).toEqual({ DynamoCalls: 1, DynamoWriteUnits: 2 });
  });
});
