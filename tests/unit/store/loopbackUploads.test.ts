import { LoopbackUploads } from "../../../lib/store/memory/loopbackUploads";

/** The memory store's stand-in for a presigned upload URL: one PUT, within its size, before it expires. */
describe("LoopbackUploads", () => {
  const stored = new Map<string, Buffer>();
  const uploads = new LoopbackUploads(async (key, bytes) => {
    if (key === "full") throw new Error("The file store is full (10 bytes)");
    stored.set(key, bytes);
  });
  const put = (url: string, body: string, method = "PUT") => fetch(url, { method, body: method === "GET" ? undefined : body });

  it("takes one PUT on loopback and stores its bytes under the key", async () => {
    const url = await uploads.url("blob-1", 5, 60);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]{24}$/);
    expect((await put(url, "hello")).status).toBe(200);
    expect(stored.get("blob-1")?.toString()).toBe("hello");
    expect((await put(url, "again")).status).toBe(403);
  });

  it("refuses more bytes than announced, another method, an unknown or expired URL, and says why", async () => {
    const url = await uploads.url("blob-2", 3, 60);
    const tooLarge = await put(url, "four");
    expect([tooLarge.status, await tooLarge.text()]).toEqual([413, "This upload URL takes at most 3 bytes"]);
    expect((await put(url, "", "GET")).status).toBe(405);
    expect((await put(url.replace(/uploads\/.*/, "uploads/unknown"), "x")).status).toBe(403);
    expect((await put(await uploads.url("blob-3", 3, -1), "x")).status).toBe(403);
    expect(stored.has("blob-2") || stored.has("blob-3")).toBe(false);
  });

  it("answers 507 with the store's reason when the store is full", async () => {
    const answer = await put(await uploads.url("full", 3, 60), "abc");
    expect([answer.status, await answer.text()]).toEqual([507, "The file store is full (10 bytes)"]);
  });
});
