import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { JOBS_MESSAGE, type LeasedJob, PONG_MESSAGE, PUSH, RECONNECT_MESSAGE } from "../../../lib/wire/relay";
import { PushLink } from "../../../relay/push";
import { runRelay } from "../../../relay/relay";

/**
 * The relay's side of the push (issue 56) against a service stand-in on one port: the lease route
 * over HTTP (its answer naming the WebSocket URL, as the service's does) and a WebSocket server that
 * checks the relay's credential, answers pings and pushes "jobs" when the test says. The e2e tier
 * runs the relay against serverless offline's real WebSocket API.
 */
const TOKEN = "0123456789abcdef01234567.secret";
const until = async (what: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("not in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

interface Service {
  url: string;
  wsUrl: string;
  sockets: WebSocket[];
  requests: IncomingMessage[];
  leases: number;
  queue: LeasedJob[];
  results: string[];
  refuse: boolean;
  answerPings: boolean;
  /** Leases that answer none while jobs are queued (an index a moment behind the write). */
  behind: number;
  /** What an empty lease answer says of a job another relay holds: ms until its lease runs out. */
  leaseEnds?: number;
  close(): Promise<void>;
}

async function service(): Promise<Service> {
  const state = {
    sockets: [] as WebSocket[],
    requests: [] as IncomingMessage[],
    leases: 0,
    queue: [] as LeasedJob[],
    results: [] as string[],
    refuse: false,
    answerPings: true,
    behind: 0,
    leaseEnds: undefined as number | undefined,
  };
  let wsUrl = "";
  const http: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if (request.url?.endsWith("/lease")) {
        state.leases += 1;
        const max = (JSON.parse(body) as { max: number }).max;
        const jobs = state.behind > 0 ? [] : state.queue.splice(0, max);
        if (state.behind > 0) state.behind -= 1;
        const ends = jobs.length === 0 && state.leaseEnds !== undefined ? { [PUSH.leaseEndsHeader]: String(state.leaseEnds) } : {};
        response.writeHead(200, { "content-type": "application/json", [PUSH.urlHeader]: wsUrl, ...ends }).end(JSON.stringify(jobs));
      } else if (request.url?.endsWith("/result")) {
        state.results.push(decodeURIComponent(request.url.split("/")[5]));
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else response.writeHead(404).end();
    });
  });
  const wss = new WebSocketServer({
    server: http,
    verifyClient: ({ req }, done) => (state.refuse || req.headers.authorization !== `Bearer ${TOKEN}` ? done(false, 401) : done(true)),
  });
  wss.on("connection", (socket, request) => {
    state.sockets.push(socket);
    state.requests.push(request);
    socket.on("message", (data) => {
      if (String(data) === PUSH.ping && state.answerPings) socket.send(PONG_MESSAGE);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  wsUrl = `ws://127.0.0.1:${port}`;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    wsUrl,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  });
}

const open = (sockets: WebSocket[]) => sockets.filter((socket) => socket.readyState === 1);

describe("the relay's push connection (PushLink)", () => {
  let s: Service;
  let link: PushLink | undefined;
  const lines: string[] = [];
  beforeEach(async () => {
    s = await service();
    lines.length = 0;
  });
  afterEach(async () => {
    link?.stop();
    await s.close();
  });
  const start = (timings: Partial<ConstructorParameters<typeof PushLink>[0]> = {}, onJobs = () => undefined) => {
    link = new PushLink({
      url: s.wsUrl,
      token: TOKEN,
      version: "0.4.0",
      onJobs,
      log: (line) => lines.push(line),
      retryMs: 20,
      ...timings,
    }).start();
    return link;
  };

  it("connects with the relay's credential and version, hears 'jobs' (and a new connection) as work, and ignores anything else", async () => {
    let heard = 0;
    start({}, () => {
      heard += 1;
    });
    await until(() => link!.connected);
    expect(s.requests[0].headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, [PUSH.versionHeader]: "0.4.0" });
    expect(heard).toBe(1);
    s.sockets[0].send(JOBS_MESSAGE);
    s.sockets[0].send("not json");
    s.sockets[0].send(JSON.stringify({ type: "something new" }));
    await until(() => heard === 2);
    expect(link!.url).toBe(s.wsUrl);
    expect(lines).toEqual([`push: connected to ${s.wsUrl}`]);
  });

  it("pings to keep the connection, and takes one that does not answer for dead: it connects again", async () => {
    start({ keepAliveMs: 30, pongWithinMs: 100 });
    await until(() => link!.connected);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(s.sockets).toHaveLength(1);
    s.answerPings = false;
    await until(() => s.sockets.length === 2);
    expect(lines).toContain("push: no answer to a ping; connecting again");
    await until(() => link!.connected);
  });

  it("connects again when the connection drops, and keeps trying while the service refuses it", async () => {
    start();
    await until(() => link!.connected);
    s.refuse = true;
    s.sockets[0].terminate();
    await until(() => lines.some((line) => line.includes("refused the connection (401)")));
    expect(link!.connected).toBe(false);
    expect(lines).toContain("push: connection closed; polling until it is back");
    s.refuse = false;
    await until(() => link!.connected);
    expect(open(s.sockets)).toHaveLength(1);
  });

  it("renews the connection before API Gateway's limit, the new open before the old is closed", async () => {
    start({ renewAfterMs: 100 });
    await until(() => s.sockets.length >= 2, 3_000);
    await until(() => open(s.sockets).length === 1);
    expect(link!.connected).toBe(true);
  });

  it("connects again when the service no longer knows the connection", async () => {
    start();
    await until(() => link!.connected);
    s.sockets[0].send(RECONNECT_MESSAGE);
    await until(() => s.sockets.length === 2 && link!.connected);
    expect(lines).toContain("push: the service no longer knows this connection; connecting again");
  });

  it("closes its connection when stopped and connects no more", async () => {
    start();
    await until(() => link!.connected);
    link!.stop();
    await until(() => open(s.sockets).length === 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(s.sockets).toHaveLength(1);
    expect(link!.connected).toBe(false);
  });
});

describe("the relay's loop with the push", () => {
  const job = (id: string): LeasedJob => ({
    id,
    site: "s",
    node: "n",
    action: { kind: "power", action: "status" },
    obm: { service: "fake", config: {} },
    requestedBy: "test",
    state: "leased",
    createdAt: "",
    updatedAt: "",
    deadline: "",
    attempts: 1,
    lease: { id: `lease-${id}` },
  });

  /** A relay run against a new service stand-in (connected, by default, with its minute's poll), stopped once `work` ends. */
  const withRelay = async (options: Partial<Parameters<typeof runRelay>[0]>, work: (s: Service) => Promise<void>) => {
    const s = await service();
    const stop = new AbortController();
    const relay = runRelay({
      api: s.url,
      token: TOKEN,
      drivers: { fake: async () => ({ ok: true, output: "on" }) },
      connectedPollMs: 60_000,
      pushTimings: { retryMs: 20 },
      signal: stop.signal,
      log: () => undefined,
      ...options,
    });
    try {
      await work(s);
    } finally {
      stop.abort();
      await relay;
      await s.close();
    }
  };

  it("polls only now and then while connected, leases at once when told, and again while a lease fills every slot", async () => {
    await withRelay({ concurrency: 2, busyPollMs: 10_000, idlePollMs: 10_000 }, async (s) => {
      await until(() => s.sockets.length === 1);
      const leasesBefore = s.leases;
      s.queue.push(job("j1"), job("j2"), job("j3"));
      s.sockets[0].send(JOBS_MESSAGE);
      await until(() => s.results.length === 3);
      expect(s.results.sort()).toEqual(["j1", "j2", "j3"]);
      // Told once: a lease, one more for the slots it filled, and the leases freed slots asked for.
      expect(s.leases - leasesBefore).toBeLessThan(10);
      // The last job's freed slot asks once more; then nothing until told again (or the minute's poll).
      // That last ask is waited for until none has come for 300 ms (on a loaded machine it came
      // later than a fixed 100 ms), then the relay must stay quiet for 500 ms more.
      let quiet = s.leases;
      for (const end = Date.now() + 5_000; Date.now() < end; quiet = s.leases) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (s.leases === quiet) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(s.leases).toBe(quiet);
    });
  });

  it("leases again when the service says a job another relay holds comes back, though nothing is pushed then", async () => {
    await withRelay({}, async (s) => {
      await until(() => s.sockets.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 700));
      // A job another relay held: its lease runs out in 300 ms, and then it is this relay's to take.
      s.queue.push(job("orphaned"));
      s.behind = 4; // the lease the push asked for and its three quick retries find nothing
      s.leaseEnds = 300;
      s.sockets[0].send(JOBS_MESSAGE);
      await until(() => s.results.includes("orphaned"), 3_000);
    });
  });

  it("polls as before with the push off, and holds no connection", async () => {
    await withRelay({ drivers: {}, push: false, idlePollMs: 20, busyPollMs: 20 }, async (s) => {
      await until(() => s.leases >= 5);
      expect(s.sockets).toHaveLength(0);
    });
  });

  it("tries a lease again soon after a push that found nothing (the service's index a moment behind)", async () => {
    await withRelay({}, async (s) => {
      await until(() => s.sockets.length === 1);
      // Past the leases the new connection asked for.
      await new Promise((resolve) => setTimeout(resolve, 700));
      const before = s.leases;
      s.queue.push(job("late"));
      s.behind = 2;
      s.sockets[0].send(JOBS_MESSAGE);
      await until(() => s.results.includes("late"), 2_000);
      // Two that found nothing, the one that took it (and perhaps one its freed slot asked for).
      expect(s.leases - before).toBeGreaterThanOrEqual(3);
      expect(s.leases - before).toBeLessThanOrEqual(4);
    });
  });
});
