import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { publishMicrokernel } from "../../microkernel/cli";
import { http, type OfflineServer, onDynamoDb, startOffline } from "../support/offlineServer";

jest.setTimeout(180_000);
const OCTETS = { "content-type": "application/octet-stream" };
const LARGE = 7 * 1024 * 1024; // past a Lambda payload (6 MB)
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * The file store over real HTTP against `serverless offline`, as FIT and the bosh CPI use it, in
 * both stores (the e2e-dynamodb tier runs this file with DynamoDB Local and s3rver). A large file
 * goes the way a client sends one whatever the store: `?size=` → 307 → PUT the bytes where
 * Location says (S3, or the memory store's loopback listener); GET then follows a 302 on S3 and
 * gets the bytes inline in memory.
 */
describe("the file store over HTTP", () => {
  let server: OfflineServer;
  const call = (method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}) =>
    http(server.baseUrl, method, `/api/1.1${path}`, options);
  const download = (path: string, redirect: "follow" | "manual" = "follow") => fetch(`${server.baseUrl}/api/1.1${path}`, { redirect });

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "off" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("round-trips a binary file byte for byte: PUT → uuid, GET, metadata, list, DELETE", async () => {
    const bytes = randomBytes(300 * 1024);
    const put = await call("PUT", "/files/pxe.img", { headers: OCTETS, body: bytes });
    expect(put.status).toBe(201);
    const uuid = put.raw;

    const got = await download(`/files/${uuid}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    const meta = (await call("GET", "/files/metadata/pxe.img")).body;
    expect(meta).toEqual([expect.objectContaining({ basename: "pxe.img", uuid, size: bytes.length, sha256: sha256(bytes), version: 0 })]);
    expect((await call("GET", "/files/list/all")).body.map((file: { uuid: string }) => file.uuid)).toContain(uuid);

    expect((await call("DELETE", `/files/${uuid}`)).status).toBe(204);
    expect(await call("GET", `/files/${uuid}`)).toMatchObject({ status: 404, body: { error: "File not found." } });
  });

  it.each([
    ["curl -T (no Content-Type)", []],
    ["a form type", ["-H", "Content-Type: application/x-www-form-urlencoded"]],
    ["a made-up type", ["-H", "Content-Type: image/x-disk"]],
  ])("keeps a binary body's bytes however it is typed, as the HTTP API does: %s", async (_how, headers) => {
    const bytes = randomBytes(1024 * 1024);
    const file = join(mkdtempSync(join(tmpdir(), "files-e2e-")), "installer.bin");
    writeFileSync(file, bytes);
    const { stdout } = await promisify(execFile)("curl", ["-s", "-T", file, ...headers, `${server.baseUrl}/api/1.1/files/installer.bin`]);
    const got = await download(`/files/${stdout}`);
    expect(got.status).toBe(200);
    const back = Buffer.from(await got.arrayBuffer());
    expect({ size: back.length, sha256: sha256(back) }).toEqual({ size: bytes.length, sha256: sha256(bytes) });
  });

  it("moves a file larger than a Lambda payload through the redirects, byte for byte", async () => {
    const bytes = randomBytes(LARGE);
    const ask = await call("PUT", `/files/installer.iso?size=${LARGE}`);
    expect(ask.status).toBe(307);
    const location = ask.headers.get("location")!;
    expect(ask.body.location).toBe(location);
    // S3's presigned URL; the memory store's stand-in for one under serverless offline (a loopback listener).
    if (onDynamoDb()) expect(new URL(location).searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    else expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]{24}$/);

    const sent = await fetch(location, { method: "PUT", headers: OCTETS, body: bytes });
    expect(sent.status).toBe(200);
    // The URL takes one upload.
    if (!onDynamoDb()) expect((await fetch(location, { method: "PUT", body: "again" })).status).toBe(403);

    const [meta] = (await call("GET", "/files/metadata/installer.iso")).body;
    expect(meta).toMatchObject({ basename: "installer.iso", size: LARGE, sha256: sha256(bytes) });
    expect(meta.uuid).toBe(ask.body.uuid);

    const first = await download(`/files/${meta.uuid}`, "manual");
    expect(first.status).toBe(onDynamoDb() ? 302 : 200);
    await first.arrayBuffer();
    const got = await download(`/files/${meta.uuid}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await call("GET", "/files/md5/installer.iso/latest")).body).toBe(meta.md5);

    expect((await call("DELETE", "/files/installer.iso")).status).toBe(204);
    expect((await download(`/files/${meta.uuid}`, "manual")).status).toBe(404);
  });

  it("serves the microkernel `npm run microkernel` publishes where the discovery profile loads it: /common/{name}", async () => {
    const folder = mkdtempSync(join(tmpdir(), "microkernel-e2e-"));
    const kernel = randomBytes(LARGE);
    const initrd = randomBytes(64 * 1024);
    writeFileSync(join(folder, "vmlinuz"), kernel);
    writeFileSync(join(folder, "initrd"), initrd);
    expect((await fetch(`${server.baseUrl}/common/vmlinuz-3.16.0-25-generic`)).status).toBe(404);

    const published = await publishMicrokernel(server.baseUrl, { kernel: join(folder, "vmlinuz"), initrd: join(folder, "initrd") });

    expect(published.map((file) => [file.name, file.bytes])).toEqual([
      ["vmlinuz-3.16.0-25-generic", LARGE],
      ["initrd.img-3.16.0-25-generic", initrd.length],
    ]);
    const first = await fetch(`${server.baseUrl}/common/vmlinuz-3.16.0-25-generic`, { redirect: "manual" });
    // Past a Lambda payload: the bucket serves it (iPXE follows the 302); memory answers inline.
    expect(first.status).toBe(onDynamoDb() ? 302 : 200);
    await first.arrayBuffer();
    for (const [name, bytes] of [
      ["vmlinuz-3.16.0-25-generic", kernel],
      ["initrd.img-3.16.0-25-generic", initrd],
    ] as const) {
      const got = await fetch(`${server.baseUrl}/common/${name}`);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const [meta] = (await call("GET", "/files/metadata/vmlinuz-3.16.0-25-generic")).body;
    expect(meta.uuid).toBe(published[0].uuid);
  });
});
