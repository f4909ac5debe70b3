import type { PutEventsCommand } from "@aws-sdk/client-eventbridge";
import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import type { ServiceEvent } from "../../../lib/provisioning/events/event";
import { eventsOfStream } from "../../../lib/store/dynamodb/eventStream";
import { EVENT_SOURCE, putOnBus } from "../../../lib/store/eventbridge/eventBus";
import { InProcessQueue } from "../../../lib/store/localDelivery";
import { queuedDelivery, SQS_MAX_DELAY_SECONDS, SqsDeliveryQueue } from "../../../lib/store/sqs/deliveryQueue";

/**
 * What carries events deployed (the table's stream, EventBridge, SQS) and locally (the in-process
 * queue): each adapter against a stub of its client, with the records AWS hands a function.
 */
const event = (sequence: number): ServiceEvent => ({
  id: `e${sequence}`,
  type: "node",
  action: "added",
  severity: "information",
  typeId: "n",
  nodeId: "n",
  data: {},
  version: "1.0",
  createdAt: "2026-11-24T00:00:00.000Z",
  subject: "n",
  sequence,
});

/** A record as DynamoDB Streams hands it to Lambda (a NEW_IMAGE view). */
const record = (eventName: "INSERT" | "MODIFY" | "REMOVE", item: Record<string, unknown>): DynamoDBRecord => ({
  eventID: "1",
  eventName,
  eventSource: "aws:dynamodb",
  dynamodb: { Keys: marshall({ pk: item.pk, sk: item.sk }) as never, NewImage: marshall(item) as never, StreamViewType: "NEW_IMAGE" },
});

describe("the table's stream of events", () => {
  it("reads the new event items of a batch, in order, and skips anything else", () => {
    const events = eventsOfStream([
      record("INSERT", { pk: "EVENT#n", sk: "000000000001", event: JSON.stringify(event(1)), expiresAt: 1 }),
      record("INSERT", { pk: "EVENT#n", sk: "head", sequence: 1 }),
      record("MODIFY", { pk: "EVENT#n", sk: "000000000002", event: JSON.stringify(event(2)) }),
      record("INSERT", { pk: "NODE", sk: "n", doc: "{}" }),
      record("INSERT", { pk: "EVENT#n", sk: "000000000003", event: JSON.stringify(event(3)) }),
    ]);
    expect(events.map((one) => one.sequence)).toEqual([1, 3]);
  });

  it("reads the audit trail's new records as audit.recorded events, the same id however often (issue 55)", () => {
    const audited = {
      id: "2026-11-28T10:00:00.000Z#abcdefgh",
      at: "2026-11-28T10:00:00.000Z",
      actor: "alice@example.com",
      verified: true,
      action: "patchNode",
      method: "PATCH",
      path: "/api/1.1/nodes/n1",
      node: "n1",
      status: 403,
    };
    const item = { pk: "AUDIT#2026-11-28", sk: audited.id, record: audited, expiresAt: 1 };
    const [first, ...rest] = eventsOfStream([record("INSERT", item), record("INSERT", { pk: "AUDIT#2026-11-28", sk: "x" })]);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      type: "audit",
      action: "recorded",
      severity: "warning",
      typeId: audited.id,
      nodeId: "n1",
      sequence: 0,
      data: audited,
    });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventsOfStream([record("INSERT", item)])[0].id).toBe(first.id);
    const { node: _node, ...anywhere } = audited;
    expect(eventsOfStream([record("INSERT", { ...item, record: { ...anywhere, status: 200 } })])[0]).toMatchObject({
      nodeId: null,
      severity: "information",
    });
  });
});

describe("the event bus", () => {
  it("puts ten events a call, detail-type type.action, detail RackHD's envelope; a refused entry fails the call", async () => {
    const sent: PutEventsCommand[] = [];
    const client = {
      send: async (command: PutEventsCommand) => {
        sent.push(command);
        return { FailedEntryCount: 0, Entries: [] };
      },
    };
    await putOnBus(
      client as never,
      "bus",
      Array.from({ length: 23 }, (_, i) => event(i + 1)),
    );
    expect(sent.map((command) => command.input.Entries!.length)).toEqual([10, 10, 3]);
    const [first] = sent[0].input.Entries!;
    expect(first).toMatchObject({ EventBusName: "bus", Source: EVENT_SOURCE, DetailType: "node.added" });
    expect(JSON.parse(first.Detail!)).toMatchObject({ id: "e1", type: "node", version: "1.0", sequence: 1 });
    const refusing = { send: async () => ({ FailedEntryCount: 1, Entries: [{ ErrorCode: "ThrottlingException" }] }) };
    await expect(putOnBus(refusing as never, "bus", [event(1)])).rejects.toThrow(/ThrottlingException/);
  });
});

describe("the SQS delivery queue", () => {
  const now = new Date("2026-11-24T00:00:00.000Z");
  const message = { hookId: "h", event: event(1), attempt: 2 };

  it("sends ten a call with the wait as SQS's delay, and a wait past 15 minutes as 15 minutes and a due time", async () => {
    const sent: SendMessageBatchCommand[] = [];
    const client = {
      send: async (command: SendMessageBatchCommand) => {
        sent.push(command);
        return { Failed: [] };
      },
    };
    const queue = new SqsDeliveryQueue(client as never, "https://sqs.example/q", () => now);
    await queue.send(
      Array.from({ length: 12 }, () => message),
      60,
    );
    expect(sent.map((command) => command.input.Entries!.map((entry) => entry.DelaySeconds))).toEqual([Array(10).fill(60), [60, 60]]);
    expect(queuedDelivery(sent[0].input.Entries![0].MessageBody!, now)).toEqual({ message, wait: 0 });
    await queue.send([message], 7200);
    const long = sent.at(-1)!.input.Entries![0];
    expect(long.DelaySeconds).toBe(SQS_MAX_DELAY_SECONDS);
    // After its 15 minutes it is read back with the rest of its wait, which the function queues again.
    expect(queuedDelivery(long.MessageBody!, new Date(now.getTime() + 900_000))).toEqual({ message, wait: 6300 });
    expect(queuedDelivery(long.MessageBody!, new Date(now.getTime() + 7_300_000)).wait).toBe(0);
  });

  it("fails when SQS refuses a message, so that nothing is dropped quietly", async () => {
    const client = { send: async () => ({ Failed: [{ Id: "0", Code: "InternalError", SenderFault: false }] }) };
    await expect(new SqsDeliveryQueue(client as never, "q").send([message], 0)).rejects.toThrow(/SQS refused 1 of 1/);
  });
});

describe("the local stand-in for the queue", () => {
  it("hands each message to its handler after its delay, and one whose handling failed again later", async () => {
    jest.useFakeTimers();
    try {
      const handled: number[] = [];
      let failOnce = true;
      const queue = new InProcessQueue(async (message) => {
        if (message.attempt === 3 && failOnce) {
          failOnce = false;
          throw new Error("store unavailable");
        }
        handled.push(message.attempt);
      });
      await queue.send([{ hookId: "h", event: event(1), attempt: 1 }], 0);
      await queue.send([{ hookId: "h", event: event(1), attempt: 2 }], 5);
      await queue.send([{ hookId: "h", event: event(1), attempt: 3 }], 0);
      await jest.advanceTimersByTimeAsync(10);
      expect(handled).toEqual([1]);
      // The failed one comes back a second later; the delayed one after its 5 seconds.
      await jest.advanceTimersByTimeAsync(1000);
      expect(handled).toEqual([1, 3]);
      await jest.advanceTimersByTimeAsync(4000);
      expect(handled).toEqual([1, 3, 2]);
      expect(queue.pending).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
