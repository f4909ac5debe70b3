import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { publishFile } from "../../../microkernel/publish";

/**
 * The file API as serverless offline's memory store answers it (307 to the same route, then 201
 * with the uuid), with a server that can drop requests unanswered: what a client sees when it
 * sends on a kept-alive connection the server is closing.
 */
function fileApi(dropFirst: number): { server: Server; stored: Buffer[]; dropped: () => number } {
  const stored: Buffer[] = [];
  let dropped = 0;
  const server = createServer((request, response) => {
    if (dropped < dropFirst) {
      dropped += 1;
      request.socket.destroy();
      return;
    }
    const url = new URL(request.url ?? "/", "http://x");
    if (url.searchParams.has("size")) {
      response.writeHead(307, { location: `http://${request.headers.host}${url.pathname}`, "content-type": "application/json" });
      response.end(JSON.stringify({ uuid: "u-1" }));
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      stored.push(Buffer.concat(chunks));
      response.writeHead(201).end("u-1");
    });
  });
  return { server, stored, dropped: () => dropped };
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("publishFile", () => {
  it("sends a request the server closed unanswered once more, and stores the file once", async () => {
    // Arrange
    const api = fileApi(1);
    const base = await listening(api.server);
    try {
      // Act
      const published = await publishFile({ api: base }, "mk.img", Buffer.from("bytes"));
      // Assert
      expect(published).toEqual({ name: "mk.img", uuid: "u-1", bytes: 5 });
      expect(api.dropped()).toBe(1);
      expect(api.stored.map(String)).toEqual(["bytes"]);
    } finally {
      api.server.close();
    }
  });

  it("gives up when the second try is closed unanswered too", async () => {
    // Arrange
    const api = fileApi(2);
    const base = await listening(api.server);
    try {
      // Act and assert
      await expect(publishFile({ api: base }, "mk.img", Buffer.from("bytes"))).rejects.toThrow("fetch failed");
      expect(api.dropped()).toBe(2);
      expect(api.stored).toEqual([]);
    } finally {
      api.server.close();
    }
  });

  it("does not send again a request the server refused", async () => {
    // Arrange: nothing listens at this port any more.
    const api = fileApi(0);
    const base = await listening(api.server);
    await new Promise((resolve) => api.server.close(resolve));
    // Act and assert
    await expect(publishFile({ api: base }, "mk.img", Buffer.from("bytes"))).rejects.toThrow("fetch failed");
  });
});
