import WebSocket from "ws";
import { PUSH, type PushMessage } from "../lib/wire/relay";

/**
 * The relay's push connection (issue 56): one WebSocket to the service's WebSocket API, on which
 * the service says "there is work" when it makes a job for the relay's site. It carries no job and
 * no secret (the relay leases over HTTPS as when it polls), so a push lost or doubled changes only
 * how soon a job is taken. It keeps itself: a ping every PUSH.keepAliveMs (API Gateway ends a
 * connection idle for 10 minutes), a new connection before API Gateway's 2 hours end the old (the
 * old closed once the new is open), and a reconnect with backoff when it drops; no pong within
 * `pongWithinMs` and the connection is taken for dead.
 */
export interface PushLinkOptions {
  url: string;
  token: string;
  version: string;
  /** The service said there is work (or a connection just opened: work may have come while there was none). */
  onJobs: () => void;
  log: (line: string) => void;
  keepAliveMs?: number;
  renewAfterMs?: number;
  pongWithinMs?: number;
  /** The first reconnect's wait, doubled per failure up to a minute. */
  retryMs?: number;
}

const MAX_RETRY_MS = 60_000;

export class PushLink {
  private current: WebSocket | undefined;
  private open = false;
  private failures = 0;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private pongTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: PushLinkOptions) {}

  /** Whether a connection is open now: the relay then polls only now and then. */
  get connected(): boolean {
    return this.open;
  }

  get url(): string {
    return this.options.url;
  }

  start(): this {
    this.connect();
    return this;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.clearPong();
    this.open = false;
    this.current?.close(1000, "relay stopping");
  }

  private later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) work();
    }, ms);
    this.timers.add(timer);
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.options.url, {
      headers: { authorization: `Bearer ${this.options.token}`, [PUSH.versionHeader]: this.options.version },
      handshakeTimeout: 10_000,
    });
    socket.on("open", () => {
      const previous = this.current;
      this.current = socket;
      this.clearPong();
      this.open = true;
      this.failures = 0;
      // The old connection (a renewal) closes once the new one is open: no moment without one.
      if (previous && previous !== socket) previous.close(1000, "renewed");
      this.options.log(`push: connected to ${this.options.url}`);
      this.keepAlive(socket);
      this.later(this.options.renewAfterMs ?? PUSH.renewAfterMs, () => {
        if (this.current === socket) this.connect();
      });
      this.options.onJobs();
    });
    socket.on("message", (data) => this.heard(socket, String(data)));
    socket.on("unexpected-response", (_request, response) => {
      this.options.log(`push: the service refused the connection (${response.statusCode})`);
      socket.terminate();
    });
    socket.on("error", (error) => this.options.log(`push: ${error.message}`));
    socket.on("close", () => this.closed(socket));
  }

  private heard(socket: WebSocket, text: string): void {
    let message: PushMessage | undefined;
    try {
      message = JSON.parse(text) as PushMessage;
    } catch {
      return;
    }
    if (message?.type === "jobs") this.options.onJobs();
    else if (message?.type === "pong" && socket === this.current) this.clearPong();
    else if (message?.type === "reconnect" && socket === this.current) {
      this.options.log("push: the service no longer knows this connection; connecting again");
      socket.terminate();
    }
  }

  private clearPong(): void {
    clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
  }

  private keepAlive(socket: WebSocket): void {
    this.later(this.options.keepAliveMs ?? PUSH.keepAliveMs, () => {
      if (this.current !== socket || socket.readyState !== WebSocket.OPEN) return;
      socket.send(PUSH.ping);
      // The first unanswered ping's clock keeps running: a later ping does not restart it.
      this.pongTimer ??= setTimeout(() => {
        this.options.log("push: no answer to a ping; connecting again");
        socket.terminate();
      }, this.options.pongWithinMs ?? 10_000);
      this.keepAlive(socket);
    });
  }

  private closed(socket: WebSocket): void {
    if (socket !== this.current && this.current !== undefined) return; // a renewed connection's old one
    this.current = undefined;
    this.clearPong();
    if (this.stopped) return;
    if (this.open) this.options.log("push: connection closed; polling until it is back");
    this.open = false;
    this.failures += 1;
    const wait = Math.min(MAX_RETRY_MS, (this.options.retryMs ?? 1_000) * 2 ** Math.min(this.failures - 1, 6));
    this.later(wait * (0.75 + Math.random() / 2), () => this.connect());
  }
}
