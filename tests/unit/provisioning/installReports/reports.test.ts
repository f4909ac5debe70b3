import fc from "fast-check";
import { REPORT_LIMITS } from "../../../../lib/provisioning/installReports/installReport";
import { parseMachineEvent } from "../../../../lib/provisioning/installReports/machineEvent";
import { acceptEvent, acceptLogChunk, readInstallLog } from "../../../../lib/provisioning/installReports/reportService";
import { later, memoryStores } from "../services/setUp";
import { bootedImageInstall, cloudInitEvent } from "./support";

describe("cloud-init's webhook events, parsed (issue 26)", () => {
  it("takes every event cloud-init's webhook handler sends, as it sends it", () => {
    const event = fc.record(
      {
        event_type: fc.constantFrom("start", "progress", "finish"),
        name: fc.string({ minLength: 1, maxLength: REPORT_LIMITS.nameChars }),
        description: fc.string({ maxLength: 300 }),
        origin: fc.constantFrom("cloudinit", "curtin", "subiquity", "installer"),
        timestamp: fc.double({ min: 0, max: 4e9, noNaN: true }),
        result: fc.constantFrom("SUCCESS", "WARN", "FAIL", ""),
      },
      { requiredKeys: ["event_type", "name"] },
    );
    fc.assert(
      fc.property(event, (body) => {
        const { event: parsed, files } = parseMachineEvent(body, later(1));
        expect(parsed).toMatchObject({
          type: body.event_type,
          name: body.name,
          description: body.description ?? "",
          at: later(1).toISOString(),
        });
        expect(parsed.result).toBe(body.result === "" ? undefined : body.result);
        expect(files).toEqual([]);
      }),
    );
  });

  it("answers anything else with a 400 that names the field", () => {
    const wrong: [unknown, RegExp][] = [
      [null, /JSON object/],
      [[], /JSON object/],
      [{ name: "x" }, /event_type/],
      [{ event_type: "stop", name: "x" }, /event_type/],
      [{ event_type: "start" }, /name is required/],
      [{ event_type: "start", name: "" }, /name must not be empty/],
      [{ event_type: "start", name: 7 }, /name must be a string/],
      [{ event_type: "start", name: "x".repeat(REPORT_LIMITS.nameChars + 1) }, /at most 200/],
      [{ event_type: "finish", name: "x", result: "OK" }, /result/],
      [{ event_type: "finish", name: "x", timestamp: "now" }, /timestamp/],
      [{ event_type: "finish", name: "x", files: {} }, /files must be an array/],
      [{ event_type: "finish", name: "x", files: [{ path: "/var/log/a" }] }, /content is required/],
      [{ event_type: "finish", name: "x", files: [{ path: "/a", content: "eA==", encoding: "gzip" }] }, /encoding/],
    ];
    for (const [body, message] of wrong) expect(() => parseMachineEvent(body, later(1))).toThrow(message);
  });

  it("reads a posted file's bytes, base64 as cloud-init sends them", () => {
    const { files } = parseMachineEvent(
      {
        event_type: "finish",
        name: "x",
        files: [{ path: "/var/log/cloud-init.log", content: Buffer.from("hello").toString("base64"), encoding: "base64" }],
      },
      later(1),
    );
    expect(files).toEqual([{ path: "/var/log/cloud-init.log", bytes: Buffer.from("hello") }]);
  });
});

describe("the machine's reports and logs, kept (issue 26)", () => {
  it("changes nothing for a wrong credential", async () => {
    const stores = memoryStores();
    const { node, credential } = await bootedImageInstall(stores);
    const before = JSON.stringify([await stores.installReports.get(node.id), await stores.workflows.list()]);
    const [id, secret] = credential.split(".");
    for (const wrong of [`${id}.${"A".repeat(43)}`, `${id}.${secret.slice(1)}x`, "nonsense"]) {
      await expect(acceptEvent(stores, wrong, cloudInitEvent("finish", "install", "FAIL"), later(10))).rejects.toMatchObject({
        kind: "not-found",
      });
      await expect(acceptLogChunk(stores, wrong, { name: "installer", seq: 1, body: Buffer.from("x") }, later(10))).rejects.toMatchObject({
        kind: "not-found",
      });
    }
    expect(JSON.stringify([await stores.installReports.get(node.id), await stores.workflows.list()])).toBe(before);
  });

  it("accepts each chunk once, joins a log's chunks in order, and keeps a posted file as the next chunk of its log", async () => {
    const stores = memoryStores();
    const { node, credential } = await bootedImageInstall(stores);
    expect(await acceptLogChunk(stores, credential, { name: "syslog", seq: 2, body: Buffer.from("two\n") }, later(10))).toEqual({
      name: "syslog",
      seq: 2,
      bytes: 4,
      duplicate: false,
    });
    await acceptLogChunk(stores, credential, { name: "syslog", seq: 1, body: Buffer.from("one\n") }, later(11));
    expect(await acceptLogChunk(stores, credential, { name: "syslog", seq: 1, body: Buffer.from("ONE AGAIN\n") }, later(12))).toEqual({
      name: "syslog",
      seq: 1,
      bytes: 4,
      duplicate: true,
    });
    expect((await readInstallLog(stores, node, "syslog", undefined, later(13))).toString()).toBe("one\ntwo\n");
    expect((await readInstallLog(stores, node, "syslog", 2, later(13))).toString()).toBe("two\n");
    await expect(readInstallLog(stores, node, "syslog", 3, later(13))).rejects.toMatchObject({ kind: "not-found" });
    await acceptEvent(
      stores,
      credential,
      {
        ...cloudInitEvent("finish", "modules-final", "SUCCESS"),
        files: [{ path: "/var/log/cloud-init-output.log", content: Buffer.from("done\n").toString("base64"), encoding: "base64" }],
      },
      later(14),
    );
    expect((await readInstallLog(stores, node, "cloud-init-output.log", undefined, later(15))).toString()).toBe("done\n");
    // Expired: nothing is answered after REPORT_LIMITS.keepDays.
    await expect(
      readInstallLog(stores, node, "syslog", undefined, later(REPORT_LIMITS.keepDays * 86_400_000 + 1000)),
    ).rejects.toMatchObject({ kind: "not-found" });
  });

  it("answers a part uploaded through a URL no longer than it was announced, whatever reached the store (issue 35 §11)", async () => {
    const memory = memoryStores();
    const { node, credential } = await bootedImageInstall(memory);
    const blobs = memory.logBlobs;
    // A store with upload URLs (S3's), whose upload took more than was announced.
    const stores = { ...memory, logBlobs: { ...blobs, uploadUrl: async () => "https://bucket.example/upload" } };
    const announced = await acceptLogChunk(stores, credential, { name: "installer", seq: 1, size: 16 }, later(10));
    expect(announced).toMatchObject({ uploadUrl: "https://bucket.example/upload" });
    const report = (await memory.installReports.get(node.id))!;
    await blobs.put(report.logs[0].key, Buffer.alloc(2 * 1024 * 1024, 66));
    expect((await readInstallLog(stores, node, "installer", undefined, later(11))).length).toBe(16);
  });

  it("bounds the logs: a chunk's size, their count, a bad name, a missing body, and writes nothing past them", async () => {
    const stores = memoryStores();
    const { node, credential } = await bootedImageInstall(stores);
    const chunk = (seq: number, bytes = 1) =>
      acceptLogChunk(stores, credential, { name: "big", seq, body: Buffer.alloc(bytes, 65) }, later(10 + seq));
    await expect(chunk(1, REPORT_LIMITS.inlineChunkBytes + 1)).rejects.toMatchObject({ kind: "payload-too-large" });
    await expect(acceptLogChunk(stores, credential, { name: "../etc", seq: 1, body: Buffer.from("x") }, later(10))).rejects.toMatchObject({
      kind: "bad-request",
    });
    await expect(acceptLogChunk(stores, credential, { name: "a", seq: 1 }, later(10))).rejects.toMatchObject({ kind: "bad-request" });
    // The memory store has no presigned URLs: a large chunk is refused with what to do instead.
    await expect(acceptLogChunk(stores, credential, { name: "a", seq: 1, size: 1 << 20 }, later(10))).rejects.toThrow(
      /pieces of at most 262144 bytes/,
    );
    await expect(
      acceptLogChunk(stores, credential, { name: "a", seq: 1, size: REPORT_LIMITS.chunkBytes + 1 }, later(10)),
    ).rejects.toMatchObject({ kind: "payload-too-large" });
    for (let seq = 1; seq <= REPORT_LIMITS.logChunks; seq += 1) await chunk(seq);
    await expect(chunk(REPORT_LIMITS.logChunks + 1)).rejects.toThrow(/its 200 log chunks/);
    expect((await stores.installReports.get(node.id))!.logs).toHaveLength(REPORT_LIMITS.logChunks);
    expect(
      await stores.logBlobs.get(`${node.id}/${(await stores.installReports.get(node.id))!.instanceId}/big/${REPORT_LIMITS.logChunks + 1}`),
    ).toBeUndefined();
  });
});
