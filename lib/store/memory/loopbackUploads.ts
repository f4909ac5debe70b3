import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";

interface ExpectedUpload {
  key: string;
  size: number;
  expiresAt: number;
}

/**
 * The memory store's stand-in for a presigned upload URL, under `serverless offline` only: a
 * listener on this host's loopback that takes one PUT of at most `size` bytes per URL, before the
 * URL expires. serverless offline, like API Gateway, refuses request bodies over 10 MB, so a large
 * file (the microkernel's kernel) can reach the memory store no other way; a client follows the
 * same 307 it follows to S3. Started on first use; it does not keep the process alive.
 */
export class LoopbackUploads {
  private baseUrl?: Promise<string>;
  private readonly expected = new Map<string, ExpectedUpload>();

  constructor(private readonly store: (key: string, bytes: Buffer) => Promise<void>) {}

  async url(key: string, size: number, expiresInSeconds: number): Promise<string> {
    this.baseUrl ??= this.listen();
    const token = randomBytes(18).toString("base64url");
    this.expected.set(token, { key, size, expiresAt: Date.now() + expiresInSeconds * 1000 });
    return `${await this.baseUrl}/uploads/${token}`;
  }

  private listen(): Promise<string> {
    const server = createServer((request, response) => void this.receive(request, response));
    server.unref();
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`));
    });
  }

  private async receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const answer = (status: number, message: string) =>
      response.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(message);
    const token = /^\/uploads\/([\w-]+)$/.exec(request.url ?? "")?.[1];
    const upload = token ? this.expected.get(token) : undefined;
    if (request.method !== "PUT") return void answer(405, "PUT only");
    if (!token || !upload || upload.expiresAt < Date.now()) return void answer(403, "This upload URL is unknown or has expired");
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      if (received > upload.size) return void answer(413, `This upload URL takes at most ${upload.size} bytes`);
      chunks.push(chunk);
    }
    this.expected.delete(token);
    try {
      await this.store(upload.key, Buffer.concat(chunks));
      answer(200, "");
    } catch (error) {
      answer(507, (error as Error).message);
    }
  }
}
