import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord, SQSEvent } from "aws-lambda";
import { Webhook } from "standardwebhooks";
import { handler as deliverHandler } from "../../handlers/provisioning/events/deliver";
import { handler as publishHandler } from "../../handlers/provisioning/events/publish";
import type { ServiceEvent } from "../../lib/provisioning/events/event";
import { secretOf } from "../../lib/provisioning/hooks/hook";
import { provisioningStores } from "../../lib/store/compositionRoot";
import { resetProcessSingleton } from "../../lib/store/processSingleton";
import { freshContainer } from "../support/api";

/**
 * The deployed event functions (issue 27) invoked as Lambda invokes them: `publishEvents` with a
 * DynamoDB stream batch, `deliverEvents` with an SQS batch. SQS and EventBridge are stand-ins
 * written here (no AWS on this machine): a local HTTP server answering their JSON APIs
 * (`AmazonSQS.SendMessageBatch`, `AWSEvents.PutEvents`), which the SDK reaches through
 * AWS_ENDPOINT_URL_SQS / AWS_ENDPOINT_URL_EVENTBRIDGE. The receiver is a real HTTP server.
 */
const KEY = "handler-test-hook-signing-key-0123456789";

const body = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let data = "";
    request.on("data", (chunk) => (data += chunk));
    request.on("end", () => resolve(data));
  });

let aws: Server;
let receiver: Server;
const calls: { target: string; input: any }[] = [];
const received: { headers: Record<string, string>; body: string }[] = [];
let receiverStatus = 200;

beforeAll(async () => {
  aws = createServer(async (request, response) => {
    const target = String(request.headers["x-amz-target"]);
    const input = JSON.parse(await body(request));
    calls.push({ target, input });
    const answer = target.endsWith("SendMessageBatch")
      ? {
          Successful: input.Entries.map((entry: { Id: string; MessageBody: string }) => ({
            Id: entry.Id,
            MessageId: `m-${entry.Id}`,
            MD5OfMessageBody: createHash("md5").update(entry.MessageBody).digest("hex"),
          })),
          Failed: [],
        }
      : { FailedEntryCount: 0, Entries: input.Entries.map((_: unknown, i: number) => ({ EventId: `e-${i}` })) };
    response.writeHead(200, { "content-type": "application/x-amz-json-1.0" }).end(JSON.stringify(answer));
  });
  receiver = createServer(async (request, response) => {
    received.push({
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
      body: await body(request),
    });
    response.writeHead(receiverStatus).end();
  });
  await new Promise<void>((resolve) => aws.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => aws.close(resolve));
  await new Promise((resolve) => receiver.close(resolve));
});

const awsUrl = () => `http://127.0.0.1:${(aws.address() as { port: number }).port}`;
const receiverUrl = () => `http://127.0.0.1:${(receiver.address() as { port: number }).port}/in`;

beforeEach(() => {
  Object.assign(process.env, {
    DEMO_NODES: "off",
    HOOK_SIGNING_KEY: KEY,
    HOOK_PRIVATE_TARGETS: "on",
    HOOK_HTTP: "on",
    AWS_ENDPOINT_URL_SQS: awsUrl(),
    AWS_ENDPOINT_URL_EVENTBRIDGE: awsUrl(),
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_REGION: "us-east-1",
    DELIVERY_QUEUE_URL: `${awsUrl()}/123456789012/deliveries`,
    EVENT_BUS: "lambda-tasks-provisioning-test",
  });
  freshContainer();
  resetProcessSingleton("deployedDelivery");
  calls.length = 0;
  received.length = 0;
  receiverStatus = 200;
});
afterEach(() => {
  for (const name of [
    "AWS_ENDPOINT_URL_SQS",
    "AWS_ENDPOINT_URL_EVENTBRIDGE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "DELIVERY_QUEUE_URL",
    "EVENT_BUS",
  ])
    delete process.env[name];
});

const CREATED = new Date().toISOString();
const event = (sequence: number): ServiceEvent => ({
  id: `8a1b2c3d-0000-4000-8000-00000000000${sequence}`,
  type: "node",
  action: "added",
  severity: "information",
  typeId: "65f0c0ffee0123456789abcd",
  nodeId: "65f0c0ffee0123456789abcd",
  data: { name: "n", nodeType: "compute" },
  version: "1.0",
  createdAt: CREATED,
  subject: "65f0c0ffee0123456789abcd",
  sequence,
});

const streamRecord = (e: ServiceEvent): DynamoDBRecord => ({
  eventName: "INSERT",
  dynamodb: {
    NewImage: marshall({ pk: `EVENT#${e.subject}`, sk: String(e.sequence).padStart(12, "0"), event: JSON.stringify(e) }) as never,
  },
});

async function aHook(): Promise<string> {
  const stores = await provisioningStores();
  const stamp = new Date().toISOString();
  await stores.hooks.create({
    id: "65f0c0ffee0123456789abce",
    url: receiverUrl(),
    filters: [],
    events: ["node.*"],
    secretGeneration: 1,
    createdAt: stamp,
    updatedAt: stamp,
  });
  return "65f0c0ffee0123456789abce";
}

describe("publishEvents (the table's stream)", () => {
  it("puts each new event on the bus and queues it for each hook that wants it", async () => {
    const hookId = await aHook();
    await publishHandler({ Records: [streamRecord(event(1)), streamRecord(event(2))] });
    const put = calls.find((call) => call.target === "AWSEvents.PutEvents")!;
    expect(put.input.Entries.map((entry: { DetailType: string; EventBusName: string }) => [entry.DetailType, entry.EventBusName])).toEqual([
      ["node.added", "lambda-tasks-provisioning-test"],
      ["node.added", "lambda-tasks-provisioning-test"],
    ]);
    const sent = calls.find((call) => call.target === "AmazonSQS.SendMessageBatch")!;
    expect(sent.input.QueueUrl).toBe(process.env.DELIVERY_QUEUE_URL);
    expect(sent.input.Entries.map((entry: { MessageBody: string }) => JSON.parse(entry.MessageBody))).toEqual([
      { hookId, event: event(1), attempt: 1 },
      { hookId, event: event(2), attempt: 1 },
    ]);
  });

  it("does nothing for a batch without new events", async () => {
    await publishHandler({ Records: [{ eventName: "MODIFY", dynamodb: {} }] });
    expect(calls).toEqual([]);
  });
});

describe("deliverEvents (the delivery queue)", () => {
  const sqsEvent = (messages: unknown[]): SQSEvent =>
    ({
      Records: messages.map((message, i) => ({
        messageId: `q-${i}`,
        body: typeof message === "string" ? message : JSON.stringify(message),
      })),
    }) as SQSEvent;

  it("delivers each message signed, queues a failed one's retry, and reports a message it could not handle", async () => {
    const hookId = await aHook();
    const answer = await deliverHandler(sqsEvent([{ hookId, event: event(1), attempt: 1 }, "not json"]));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: "q-1" }] });
    expect(new Webhook(secretOf(KEY, hookId, 1)).verify(received[0].body, received[0].headers)).toMatchObject({ id: event(1).id });

    receiverStatus = 503;
    await deliverHandler(sqsEvent([{ hookId, event: event(2), attempt: 1 }]));
    const retry = calls.find((call) => call.target === "AmazonSQS.SendMessageBatch")!;
    expect(retry.input.Entries[0].DelaySeconds).toBe(10);
    expect(JSON.parse(retry.input.Entries[0].MessageBody)).toEqual({ hookId, event: event(2), attempt: 2 });
  });

  it("puts a message not yet due back for the rest of its wait, without an attempt", async () => {
    const hookId = await aHook();
    const dueAt = new Date(Date.now() + 3600_000).toISOString();
    await deliverHandler(sqsEvent([{ hookId, event: event(3), attempt: 5, dueAt }]));
    expect(received).toEqual([]);
    const again = calls.find((call) => call.target === "AmazonSQS.SendMessageBatch")!;
    expect(again.input.Entries[0].DelaySeconds).toBe(900);
    expect(JSON.parse(again.input.Entries[0].MessageBody)).toMatchObject({ attempt: 5 });
  });
});
