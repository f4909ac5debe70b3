import { createHash, randomBytes } from "node:crypto";
import { api, freshContainer, get, send } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

const A = "/api/1.1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { status: 404, body: { error: "File not found." } };

/** A PUT of raw bytes, base64-encoded as API Gateway hands a binary body to the function. */
const putBytes = (path: string, bytes: Buffer, headers: Record<string, string> = {}) =>
  api({
    method: "PUT",
    path,
    headers: { "content-type": "application/octet-stream", ...headers },
    body: bytes.toString("base64"),
    isBase64Encoded: true,
  });
const hex = (algorithm: string, bytes: Buffer | string) => createHash(algorithm).update(bytes).digest("hex");

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "MEMORY_STORE_MAX_BYTES"]) delete process.env[name];
  freshContainer();
});

describe("the file store (memory)", () => {
  it("round-trips a file as FIT does: PUT → 201 with the uuid as text, GET by uuid, listed, DELETE → 204", async () => {
    const put = await api({ method: "PUT", path: `${A}/files/testfile`, headers: { "content-type": "text/plain" }, body: "hello" });
    expect(put.status).toBe(201);
    expect(put.headers["content-type"]).toMatch(/^text\/plain/);
    expect(put.raw).toMatch(UUID);
    const uuid = put.raw;

    const got = await get(`${A}/files/${uuid}`);
    expect(got).toMatchObject({ status: 200, headers: { "content-type": "application/octet-stream" } });
    expect(got.bytes.toString()).toBe("hello");
    expect((await get(`${A}/files/testfile`)).bytes.toString()).toBe("hello");
    expect((await get(`${A}/files/testfile/latest`)).bytes.toString()).toBe("hello");
    expect((await get(`${A}/files/md5/testfile/latest`)).body).toBe(hex("md5", "hello"));
    const metadata = {
      basename: "testfile",
      filename: "testfile",
      uuid,
      md5: hex("md5", "hello"),
      sha256: hex("sha256", "hello"),
      size: 5,
      version: 0,
    };
    expect((await get(`${A}/files/metadata/testfile`)).body).toEqual([metadata]);
    expect((await get(`${A}/files/list/all`)).body).toEqual([metadata]);

    expect(await api({ method: "DELETE", path: `${A}/files/${uuid}`, headers: {} })).toMatchObject({ status: 204, raw: "" });
    expect(await get(`${A}/files/${uuid}`)).toMatchObject(NOT_FOUND);
    expect(await get(`${A}/files/metadata/testfile`)).toMatchObject(NOT_FOUND);
    expect(await get(`${A}/files/md5/testfile/latest`)).toMatchObject(NOT_FOUND);
    expect((await get(`${A}/files/list/all`)).body).toEqual([]);
    expect(await api({ method: "DELETE", path: `${A}/files/${uuid}`, headers: {} })).toMatchObject(NOT_FOUND);
  });

  it("keeps the uuid when a name is put again, and answers the uuid actually stored (bosh's delete by metadata works)", async () => {
    const first = (await putBytes(`${A}/files/stemcell`, Buffer.from("one"))).raw;
    const second = await putBytes(`${A}/files/stemcell`, Buffer.from("two!"));
    expect(second).toMatchObject({ status: 201, raw: first });
    expect((await get(`${A}/files/${first}`)).bytes.toString()).toBe("two!");
    const [meta] = (await get(`${A}/files/metadata/stemcell`)).body;
    expect(meta).toMatchObject({ uuid: first, size: 4, md5: hex("md5", "two!") });
    // bosh-rackhd-cpi deletes by the metadata's uuid; a name works too.
    expect((await api({ method: "DELETE", path: `${A}/files/stemcell`, headers: {} })).status).toBe(204);
    expect(await get(`${A}/files/${first}`)).toMatchObject(NOT_FOUND);
  });

  it("keeps binary bytes exact, past BODY_LIMIT_BYTES (a file is not a JSON body)", async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const uuid = (await putBytes(`${A}/files/image.bin`, bytes)).raw;
    const got = await get(`${A}/files/${uuid}`);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(bytes)).toBe(true);
    expect((await get(`${A}/files/metadata/image.bin`)).body[0]).toMatchObject({ size: bytes.length, sha256: hex("sha256", bytes) });
  });

  it("takes an empty file, and names with dots, spaces and unicode", async () => {
    for (const name of ["empty", "ubuntu-22.04.iso", "my file", "fichier-été"]) {
      const path = `${A}/files/${encodeURIComponent(name)}`;
      const bytes = Buffer.from(name === "empty" ? "" : name);
      expect((await putBytes(path, bytes)).status).toBe(201);
      expect((await get(`${path}/latest`)).bytes.equals(bytes)).toBe(true);
    }
    const names = (await get(`${A}/files/list/all`)).body.map((file: { basename: string }) => file.basename);
    expect(names.sort()).toEqual(["empty", "fichier-été", "my file", "ubuntu-22.04.iso"]);
  });

  it("answers ?size= with no body by a 307 to the same URL: this store takes every file inline", async () => {
    const answer = await api({ method: "PUT", path: `${A}/files/big.iso?size=7340032`, headers: {} });
    expect(answer.status).toBe(307);
    expect(answer.headers.location).toBe(`https://abc123.execute-api.us-east-1.amazonaws.com${A}/files/big.iso`);
    expect(answer.body).toEqual({ location: answer.headers.location });
    expect((await get(`${A}/files/list/all`)).body).toEqual([]);
  });

  it("refuses a file larger than the store (413) or a bad ?size= (400), and changes nothing", async () => {
    process.env.MEMORY_STORE_MAX_BYTES = "1000";
    freshContainer();
    const tooLarge = await putBytes(`${A}/files/big`, Buffer.alloc(1001));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toMatch(/at most 1000 bytes: for a larger one, PUT with \?size=<bytes> and no body/);
    for (const query of ["size=abc", "size=-1", "size=1&size=2", "size=123456789012"]) {
      const answer = await api({ method: "PUT", path: `${A}/files/big?${query}`, headers: {} });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe("size must be the file's length in bytes, once");
    }
    expect(await api({ method: "PUT", path: `${A}/files/big?size=6000000000`, headers: {} })).toMatchObject({ status: 413 });
    expect((await get(`${A}/files/list/all`)).body).toEqual([]);

    // The store is bounded as a whole: a file that would overfill it answers 507 and is not kept.
    expect((await putBytes(`${A}/files/first`, Buffer.alloc(600))).status).toBe(201);
    const full = await putBytes(`${A}/files/second`, Buffer.alloc(600));
    expect(full.status).toBe(507);
    expect((await get(`${A}/files/list/all`)).body.map((file: { basename: string }) => file.basename)).toEqual(["first"]);
  });

  it("answers 404 for names longer than any name, and for a uuid nobody stored", async () => {
    expect((await get(`${A}/files/${"x".repeat(256)}`)).status).toBe(404);
    expect(await get(`${A}/files/0b9a2c8e-6f1d-4c3a-9e2b-5d7f8a1c3e4b`)).toMatchObject(NOT_FOUND);
    expect(await get(`${A}/files/nothing/latest`)).toMatchObject(NOT_FOUND);
  });

  it("asks for credentials to put, list, read metadata and delete; the bytes are served to booting machines without", async () => {
    process.env.PROVISIONING_AUTH = "on";
    process.env.AUTH_USERS = "admin:s3cret";
    const auth = { authorization: basic("admin", "s3cret") };
    expect((await putBytes(`${A}/files/kernel`, Buffer.from("k"))).status).toBe(401);
    const uuid = (await putBytes(`${A}/files/kernel`, Buffer.from("k"), auth)).raw;
    expect(uuid).toMatch(UUID);
    expect((await get(`${A}/files/${uuid}`)).status).toBe(200);
    expect((await get(`${A}/files/kernel/latest`)).status).toBe(200);
    expect((await get(`${A}/files/md5/kernel/latest`)).status).toBe(200);
    expect((await get(`${A}/files/metadata/kernel`)).status).toBe(401);
    expect((await get(`${A}/files/list/all`)).status).toBe(401);
    expect((await send("DELETE", `${A}/files/${uuid}`)).status).toBe(401);
    expect((await api({ method: "DELETE", path: `${A}/files/${uuid}`, headers: auth })).status).toBe(204);
  });
});
