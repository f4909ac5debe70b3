import { createHash } from "node:crypto";
import { ConflictError } from "../../../../lib/errors";
import type { FileBlobs, FileDigest } from "../../../../lib/provisioning/files/fileBlobs";
import {
  deleteFile,
  downloadFile,
  findFile,
  listFiles,
  putFile,
  startUpload,
  UPLOAD_MAX_BYTES,
  URL_SECONDS,
} from "../../../../lib/provisioning/files/fileService";
import { later, memoryStores, replacing, T0 } from "./setUp";

/**
 * A byte store like S3's adapter: files above 8 bytes go by URL. A test double of the port (the
 * real S3 adapter is tried against s3rver in the contract tier); the client's upload is `upload`.
 */
class UrlBlobs implements FileBlobs {
  readonly inlineMaxBytes = 8;
  readonly blobs = new Map<string, Buffer>();
  async put(key: string, bytes: Buffer) {
    this.blobs.set(key, Buffer.from(bytes));
  }
  async get(key: string) {
    return this.blobs.get(key);
  }
  async digest(key: string): Promise<FileDigest | undefined> {
    const bytes = this.blobs.get(key);
    return bytes && { size: bytes.byteLength, md5: md5(bytes), sha256: createHash("sha256").update(bytes).digest("hex") };
  }
  async delete(key: string) {
    this.blobs.delete(key);
  }
  async uploadUrl(key: string) {
    return `https://bucket.example/${key}?signed`;
  }
  async downloadUrl(key: string) {
    return `https://bucket.example/${key}?get`;
  }
  upload(location: string, bytes: Buffer) {
    this.blobs.set(new URL(location).pathname.slice(1), bytes);
  }
}

const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

describe("fileService", () => {
  const withUrls = () => {
    const blobs = new UrlBlobs();
    return { stores: { ...memoryStores(), fileBlobs: blobs }, blobs };
  };

  it("stores bytes by name with a uuid that names them too, and a PUT of the name replaces the bytes, keeping the uuid", async () => {
    const stores = memoryStores();
    const first = await putFile(stores, "ks.cfg", Buffer.from("one"), T0);
    expect(first.content).toMatchObject({ size: 3, md5: md5(Buffer.from("one")) });
    const second = await putFile(stores, "ks.cfg", Buffer.from("two!"), later(1));
    expect(second.uuid).toBe(first.uuid);
    expect(second.createdAt).toBe(T0.toISOString());
    const byUuid = await downloadFile(stores, first.uuid.toUpperCase(), later(2));
    expect(byUuid && "bytes" in byUuid && byUuid.bytes.toString()).toBe("two!");
    expect((await findFile(stores, "ks.cfg", later(2)))?.content.size).toBe(4);
    expect(await findFile(stores, first.uuid, later(2), true)).toBeUndefined();
    expect(await listFiles(stores, later(2))).toHaveLength(1);
  });

  it("deletes by uuid or name, with the uuid and bytes, and answers false for a file that is not there", async () => {
    const stores = memoryStores();
    const file = await putFile(stores, "a.iso", Buffer.from("bytes"), T0);
    expect(await deleteFile(stores, file.uuid)).toBe(true);
    expect(await deleteFile(stores, "a.iso")).toBe(false);
    expect(await stores.fileIds.get(file.uuid)).toBeUndefined();
    await putFile(stores, "b.iso", Buffer.from("bytes"), T0);
    expect(await deleteFile(stores, "b.iso")).toBe(true);
    expect(await downloadFile(stores, "b.iso", T0)).toBeUndefined();
  });

  it("refuses bytes past what the store takes inline, saying how to send them, and stores nothing", async () => {
    const { stores } = withUrls();
    await expect(putFile(stores, "big.iso", Buffer.alloc(9), T0)).rejects.toThrow(
      /^A file in the body holds at most 8 bytes: for a larger one, PUT with \?size=<bytes>/,
    );
    expect(await listFiles(stores, T0)).toEqual([]);
    await expect(startUpload(stores, "huge.iso", 5 * 1024 ** 3 + 1, T0)).rejects.toMatchObject({ kind: "payload-too-large" });
  });

  it("takes exactly the inline limit in the body, and an upload of exactly the largest size, naming that size past it", async () => {
    const { stores } = withUrls();
    expect((await putFile(stores, "eight.bin", Buffer.alloc(8), T0)).content.size).toBe(8);
    expect(await startUpload(stores, "max.iso", UPLOAD_MAX_BYTES, T0)).toMatchObject({ location: expect.any(String) });
    await expect(startUpload(stores, "huge.iso", UPLOAD_MAX_BYTES + 1, T0)).rejects.toMatchObject({
      kind: "payload-too-large",
      message: `A file holds at most ${UPLOAD_MAX_BYTES} bytes`,
    });
  });

  it("makes a presigned upload the file's bytes at the first read after it lands, keeps the old bytes until then, and drops them at the next write", async () => {
    const { stores, blobs } = withUrls();
    const old = await putFile(stores, "os.iso", Buffer.from("old"), T0);
    const upload = await startUpload(stores, "os.iso", 20, T0);
    expect(upload).toMatchObject({ uuid: old.uuid, expiresInSeconds: URL_SECONDS });
    const before = await downloadFile(stores, "os.iso", later(1));
    expect(before && "bytes" in before && before.bytes.toString()).toBe("old");
    blobs.upload(upload!.location, Buffer.from("twenty bytes of iso!"));
    const after = await downloadFile(stores, "os.iso", later(2));
    expect(after).toMatchObject({ location: expect.stringMatching(/\?get$/), file: { content: { size: 20 } } });
    // A read deletes no bytes (a booting machine's routes may not): the replaced ones wait for the file's next write.
    expect(blobs.blobs.size).toBe(2);
    expect((await stores.files.get("os.iso"))?.staleBlobs).toHaveLength(1);
    await putFile(stores, "os.iso", Buffer.from("new"), later(3));
    expect(blobs.blobs.size).toBe(1);
    expect((await stores.files.get("os.iso"))?.staleBlobs).toBeUndefined();
  });

  it("drops the replaced bytes with the file when it is deleted", async () => {
    const { stores, blobs } = withUrls();
    await putFile(stores, "os.iso", Buffer.from("old"), T0);
    const upload = await startUpload(stores, "os.iso", 20, T0);
    blobs.upload(upload!.location, Buffer.from("twenty bytes of iso!"));
    await findFile(stores, "os.iso", later(1));
    expect(blobs.blobs.size).toBe(2);
    expect(await deleteFile(stores, "os.iso")).toBe(true);
    expect(blobs.blobs.size).toBe(0);
  });

  it("forgets an upload whose URL expired with nothing sent: a new name disappears, an old one keeps its bytes", async () => {
    const { stores } = withUrls();
    await startUpload(stores, "never.iso", 20, T0);
    expect(await findFile(stores, "never.iso", later(1))).toBeUndefined();
    expect(await stores.files.get("never.iso")).toBeDefined();
    expect(await listFiles(stores, later(URL_SECONDS * 1000 + 1))).toEqual([]);
    expect(await stores.files.get("never.iso")).toBeUndefined();
  });

  it("answers no upload URL where the byte store takes every file inline (memory)", async () => {
    expect(await startUpload(memoryStores(), "a.iso", 20, T0)).toBeUndefined();
  });

  it("puts over the file another writer created first, keeping its uuid and dropping its own", async () => {
    const stores = memoryStores();
    const winner = await putFile(stores, "a.txt", Buffer.from("one"), T0);
    let updates = 0;
    // The first look finds no file (the other writer's create lands right after it).
    const racing = replacing(stores, "files", {
      update: async (...args: Parameters<typeof stores.files.update>) => (++updates === 1 ? undefined : stores.files.update(...args)),
    });
    const put = await putFile(racing, "a.txt", Buffer.from("two"), later(1));
    expect(put.uuid).toBe(winner.uuid);
    expect((await downloadFile(stores, winner.uuid, later(2)))?.file.content.size).toBe(3);
    expect((await stores.fileIds.list()).map((id) => id.id)).toEqual([winner.uuid]);
  });

  it("passes on a create's other failures, and a conflict whose winner is gone, leaving no uuid behind", async () => {
    const stores = memoryStores();
    const failing = replacing(stores, "files", {
      create: async () => {
        throw new Error("store down");
      },
    });
    await expect(putFile(failing, "b.txt", Buffer.from("x"), T0)).rejects.toThrow("store down");
    const vanished = replacing(stores, "files", {
      create: async () => {
        throw new ConflictError("taken");
      },
    });
    await expect(putFile(vanished, "c.txt", Buffer.from("x"), T0)).rejects.toMatchObject({ kind: "conflict" });
    expect(await stores.fileIds.list()).toEqual([]);
  });

  it("finds nothing by a uuid whose name now holds another file", async () => {
    const stores = memoryStores();
    await putFile(stores, "a.txt", Buffer.from("one"), T0);
    const stale = "0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e";
    await stores.fileIds.create({ id: stale, basename: "a.txt", createdAt: T0.toISOString() });
    expect(await findFile(stores, stale, later(1))).toBeUndefined();
  });
});
