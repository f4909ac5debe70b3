import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { promisify } from "node:util";
import { macOfAddress, macOfLease } from "../../../relay/neighbours";
import { GRUB_CFG, MAX_TIMEOUT_S, negotiate, PER_CLIENT, parseRequest, startTftpServer } from "../../../relay/tftpServer";

const ARP_HEADER = "IP address       HW type     Flags       HW address            Mask     Device";

const run = promisify(execFile);

/**
 * The relay's TFTP server against real clients (curl and busybox's tftp), with the service's side
 * a small HTTP server that answers as the service does and records what the relay asked.
 */
describe("the relay's TFTP server (Secure Boot machines' shim, GRUB and its scripts)", () => {
  const kernel = randomBytes(3 * 1468 + 17);
  const asked: { url: string; headers: IncomingHttpHeaders }[] = [];
  /** The host's neighbour table as /proc/net/arp prints it: the test's clients are at 127.0.0.1. */
  let neighbours = `${ARP_HEADER}\n127.0.0.1        0x1         0x2         52:54:00:5B:00:01     *        sb1\n`;
  /** The site's dnsmasq leases, for machines that are not neighbours. */
  let leases = "";
  let service: Server;
  let tftp: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    service = createServer((request, response) => {
      asked.push({ url: request.url ?? "", headers: request.headers });
      if (request.url === "/common/shimx64.efi") return response.end("SHIM");
      if (request.url === "/common/vmlinuz") return response.end(kernel);
      if (request.url?.split("?")[0] === "/common/initrd-q") return response.end(kernel);
      if (request.url === "/api/current/files/initrd.img/latest?nodeId=abc&token=t0k") return response.end("INITRD");
      if (request.url?.startsWith("/api/current/profiles?macs=52:54:00:5b:00:01&loader=grub")) return response.end("echo 'hello'\n");
      if (request.url?.startsWith("/api/current/profiles?macs=52:54:00:5b:00:02&loader=grub")) return response.end("echo 'victim'\n");
      if (request.url === "/api/current/profiles/loader?macs=52:54:00:5b:00:01")
        return response.end(JSON.stringify({ loader: "grub", file: "shimx64.efi", because: "secure-boot" }));
      if (request.url === "/api/current/profiles/loader") return response.end(JSON.stringify({ loader: "ipxe", file: "../etc/passwd" }));
      if (request.url === "/common/broken") return response.writeHead(503).end();
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    const api = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
    tftp = await startTftpServer({
      api,
      token: "relay-token",
      listen: "127.0.0.1:0",
      publicUrl: "http://10.1.0.2:8080",
      timeoutMs: 200,
      neighbours: () => neighbours,
      leases: () => leases,
    });
  });

  afterAll(async () => {
    await tftp.close();
    await new Promise((resolve) => service.close(resolve));
  });

  /** One packet sent from a socket of its own, and the first packet answered (a client that never resends). */
  const answer = (packet: Buffer) =>
    new Promise<Buffer>((resolve) => {
      const socket = createSocket("udp4");
      socket.once("message", (message) => {
        socket.close();
        resolve(message);
      });
      socket.send(packet, tftp.port, "127.0.0.1");
    });

  const curl = async (file: string, blksize?: number) => {
    const args = [
      "-sS",
      "--max-time",
      "10",
      ...(blksize ? ["--tftp-blksize", String(blksize)] : []),
      `tftp://127.0.0.1:${tftp.port}/${file}`,
    ];
    return (await run("curl", args, { encoding: "buffer" })).stdout as Buffer;
  };

  it("sends GRUB to its machine's own script, and that script from the service by the MAC, with the relay's credential and URL", async () => {
    expect((await curl("grub/grub.cfg")).toString()).toBe(GRUB_CFG);
    expect(GRUB_CFG).toContain("source (tftp)/grub/machine/$net_default_mac");
    expect((await curl("grub/machine/52:54:00:5B:00:01")).toString()).toBe("echo 'hello'\n");
    const profile = asked.find((request) => request.url.startsWith("/api/current/profiles"))!;
    expect(profile.url).toBe("/api/current/profiles?macs=52:54:00:5b:00:01&loader=grub");
    expect(profile.headers).toMatchObject({
      authorization: "Bearer relay-token",
      "x-relay-base": "http://10.1.0.2:8080",
      "x-forwarded-for": "127.0.0.1",
    });
  });

  it("serves uefi.efi as the loader the service chooses for the machine, known by its MAC in the host's neighbour table", async () => {
    expect((await curl("uefi.efi")).toString()).toBe("SHIM");
    expect(asked.map((request) => request.url)).toContain("/api/current/profiles/loader?macs=52:54:00:5b:00:01");
    // Not a neighbour (a routed network): the service is asked without a MAC, and a file it names must be a loader.
    neighbours = ARP_HEADER;
    const refused = await run("busybox", ["tftp", "-g", "-r", "uefi.efi", "-l", "/dev/null", "127.0.0.1", String(tftp.port)]).then(
      () => "",
      (error: { stderr: string }) => error.stderr,
    );
    expect(asked.at(-1)?.url).toBe("/api/current/profiles/loader");
    expect(refused).toContain("The provisioning service named no loader");
  });

  it("finds a MAC in the neighbour table only for the address asked, and never one of zeros", () => {
    const table = [
      ARP_HEADER,
      "10.98.0.60       0x1         0x2         52:54:00:5B:00:01     *        sb1",
      "10.98.0.61       0x1         0x0         00:00:00:00:00:00     *        sb1",
      // Learnt from the machine's ARP request, not confirmed: Linux prints its flags 0x0.
      "10.98.0.63       0x1         0x0         52:54:00:5b:00:03     *        sb1",
      "10.98.0.62       0x1         0x2         garbage               *        sb1",
    ].join("\n");
    expect(macOfAddress("10.98.0.60", table)).toBe("52:54:00:5b:00:01");
    expect(macOfAddress("10.98.0.6", table)).toBeUndefined();
    expect(macOfAddress("10.98.0.61", table)).toBeUndefined();
    expect(macOfAddress("10.98.0.62", table)).toBeUndefined();
    expect(macOfAddress("10.98.0.63", table)).toBe("52:54:00:5b:00:03");
    expect(macOfAddress("10.98.0.60", "")).toBeUndefined();
  });

  it("serves the signed loaders and the boot files byte for byte, in blocks of the size asked (and 512 without)", async () => {
    expect((await curl("shimx64.efi")).toString()).toBe("SHIM");
    for (const blksize of [undefined, 1024, 1468, 8192]) expect((await curl("common/vmlinuz", blksize)).equals(kernel)).toBe(true);
    // busybox's client, as a microkernel or a small firmware uses.
    const out = `/tmp/tftp-${process.pid}`;
    await run("busybox", ["tftp", "-g", "-b", "1024", "-r", "/common/vmlinuz", "-l", out, "127.0.0.1", String(tftp.port)]);
    expect(require("node:fs").readFileSync(out).equals(kernel)).toBe(true);
    require("node:fs").rmSync(out);
    // Every machine's kernel is the same file: fetched from the service once for the five transfers.
    expect(asked.filter((request) => request.url === "/common/vmlinuz")).toHaveLength(1);
  });

  it("answers File not found for what is not a boot file, and says the service failed when it did", async () => {
    // busybox's client prints the server's error code and text.
    const refusal = (file: string) =>
      run("busybox", ["tftp", "-g", "-r", file, "-l", "/dev/null", "127.0.0.1", String(tftp.port)]).then(
        () => "",
        (error: { stderr: string }) => error.stderr,
      );
    for (const file of ["etc/passwd", "grub/x86_64-efi/grub.cfg", "grub/machine/not-a-mac", "common/missing"]) {
      expect(await refusal(file)).toMatch(/not found/i);
    }
    expect(await refusal("common/broken")).toMatch(/\(0\) The provisioning service answered 503/);
  });

  it("serves a machine's own script only to the address that holds its MAC: neighbour table, else the DHCP leases (issue 50)", async () => {
    const violation = await answer(Buffer.from("\0\u0001grub/machine/52:54:00:5b:00:02\0octet\0", "latin1"));
    expect([violation.readUInt16BE(0), violation.readUInt16BE(2)]).toEqual([5, 2]);
    expect(asked.some((each) => each.url.includes("52:54:00:5b:00:02"))).toBe(false);
    // Not a neighbour (a DHCP relay between): the lease the site's DHCP gave the address decides.
    const before = neighbours;
    neighbours = ARP_HEADER;
    leases = "1790000000 52:54:00:5b:00:02 127.0.0.1 victim 01:52:54:00:5b:00:02\n";
    try {
      expect((await curl("grub/machine/52:54:00:5b:00:02")).toString()).toBe("echo 'victim'\n");
      expect(macOfLease("127.0.0.2", leases)).toBeUndefined();
    } finally {
      neighbours = before;
      leases = "";
    }
  });

  it("serves only the files its docs list: a backslash, a dot-dot or a service route is File not found, and never asked (issue 50)", async () => {
    const before = asked.length;
    for (const file of [
      "common/..\\api\\1.1\\nodes",
      "common/../api/1.1/nodes",
      "api/current/profiles",
      "api/1.1/nodes",
      "api/current/tasks/x",
    ]) {
      const refusal = await answer(Buffer.from(`\0\u0001${file}\0octet\0`, "latin1"));
      expect([file, refusal.readUInt16BE(0), refusal.readUInt16BE(2)]).toEqual([file, 5, 1]);
    }
    expect(asked.length).toBe(before);
    // A file route with its query, as a GRUB script names it, is served.
    const file = await answer(Buffer.from("\0\u0001api/current/files/initrd.img/latest?nodeId=abc&token=t0k\0octet\0", "latin1"));
    expect([file.readUInt16BE(0), file.readUInt16BE(2), file.subarray(4).toString()]).toEqual([3, 1, "INITRD"]);
  });

  it(`holds at most ${PER_CLIENT} transfers from one address; the next is told the relay is busy, on no socket of its own`, async () => {
    const clients = await Promise.all(
      Array.from({ length: PER_CLIENT + 1 }, async () => {
        const client = createSocket("udp4");
        await new Promise<void>((resolve) => client.bind(0, "127.0.0.1", () => resolve()));
        return client;
      }),
    );
    const first = (client: (typeof clients)[number]) =>
      new Promise<{ message: Buffer; port: number }>((resolve) =>
        client.once("message", (message, from) => resolve({ message, port: from.port })),
      );
    // Clients that never acknowledge: each transfer waits for them.
    const held = clients.slice(0, PER_CLIENT).map(first);
    for (const client of clients.slice(0, PER_CLIENT))
      client.send(Buffer.from("\0\u0001shimx64.efi\0octet\0", "latin1"), tftp.port, "127.0.0.1");
    await Promise.all(held);
    const busy = first(clients[PER_CLIENT]);
    clients[PER_CLIENT].send(Buffer.from("\0\u0001shimx64.efi\0octet\0", "latin1"), tftp.port, "127.0.0.1");
    const refused = await busy;
    expect([refused.message.readUInt16BE(0), refused.message.subarray(4).toString("latin1")]).toEqual([
      5,
      "The relay is busy: try again\0",
    ]);
    expect(refused.port).toBe(tftp.port);
    for (const client of clients) client.close();
    // The held transfers give up after their retries (200 ms each, here): the next tests start clear.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  });

  it("keeps the shared files up to a bound in bytes, dropping the oldest (issue 50: every name was kept a minute, unbounded)", async () => {
    const small = await startTftpServer({
      api: `http://127.0.0.1:${(service.address() as { port: number }).port}`,
      token: "relay-token",
      listen: "127.0.0.1:0",
      publicUrl: "http://10.1.0.2:8080",
      timeoutMs: 200,
      neighbours: () => neighbours,
      sharedMaxBytes: kernel.length + 2,
    });
    const fetches = (url: string) => asked.filter((each) => each.url === url).length;
    const get = (file: string) =>
      run("curl", ["-sS", "--max-time", "10", `tftp://127.0.0.1:${small.port}/${file}`], { encoding: "buffer" }).then(
        ({ stdout }) => stdout,
      );
    try {
      const [shim, vmlinuz] = [fetches("/common/shimx64.efi"), fetches("/common/vmlinuz")];
      await get("shimx64.efi");
      await get("shimx64.efi");
      expect(fetches("/common/shimx64.efi") - shim).toBe(1);
      // The kernel and the shim do not both fit: the shim, the older, goes.
      expect((await get("common/vmlinuz")).equals(kernel)).toBe(true);
      await get("shimx64.efi");
      expect(fetches("/common/shimx64.efi") - shim).toBe(2);
      expect(fetches("/common/vmlinuz") - vmlinuz).toBe(1);
    } finally {
      await small.close();
    }
  });

  it("keeps a shared file by its path, whatever query names it: thirty ?copy=N fetch it from the service once", async () => {
    // busybox's client sends the name whole (curl's takes the query off).
    for (let copy = 0; copy < 30; copy += 1)
      await run("busybox", ["tftp", "-g", "-r", `common/initrd-q?copy=${copy}`, "-l", "/dev/null", "127.0.0.1", String(tftp.port)]);
    expect(asked.filter((request) => request.url.startsWith("/common/initrd-q"))).toHaveLength(1);
  });

  it("answers a transfer from the address it listens on, not from another address of the host", async () => {
    const only = await startTftpServer({
      api: `http://127.0.0.1:${(service.address() as { port: number }).port}`,
      token: "relay-token",
      listen: "127.0.0.2:0",
      publicUrl: "http://10.1.0.2:8080",
      timeoutMs: 200,
      neighbours: () => neighbours,
    });
    try {
      const from = await new Promise<string>((resolve) => {
        const socket = createSocket("udp4");
        socket.bind(0, "127.0.0.1", () => {
          socket.once("message", (message, remote) => {
            socket.close();
            resolve(`${remote.address} opcode ${message.readUInt16BE(0)}`);
          });
          socket.send(Buffer.from("\0\u0001shimx64.efi\0octet\0", "latin1"), only.port, "127.0.0.2");
        });
      });
      expect(from).toBe("127.0.0.2 opcode 3");
    } finally {
      await only.close();
    }
  });

  it("answers a request resent while it is answered once, and does not keep a failed fetch", async () => {
    const client = createSocket("udp4");
    await new Promise<void>((resolve) => client.bind(0, "127.0.0.1", () => resolve()));
    const senders = new Set<number>();
    client.on("message", (_message, from) => senders.add(from.port));
    // A firmware that hears nothing soon sends the same request again, from the same port.
    const request = Buffer.from("\0\u0001shimx64.efi\0octet\0", "latin1");
    for (let copy = 0; copy < 5; copy += 1) client.send(request, tftp.port, "127.0.0.1");
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.close();
    // One transfer answered it (one transfer id), however many copies came.
    expect(senders.size).toBe(1);
    const before = asked.filter((each) => each.url === "/common/broken").length;
    // One request each, never resent (busybox's client resends after 100 ms, and on a busy host a
    // copy can land after its answer: a new request then, which would make the count unsure).
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refusal = await answer(Buffer.from("\0\u0001common/broken\0octet\0", "latin1"));
      expect([refusal.readUInt16BE(0), refusal.readUInt16BE(2)]).toEqual([5, 0]);
    }
    expect(asked.filter((each) => each.url === "/common/broken").length - before).toBe(2);
  });

  it("refuses a write and a malformed request with TFTP's error packets", async () => {
    const write = await answer(Buffer.from("\0\x02file\0octet\0", "latin1"));
    expect([write.readUInt16BE(0), write.readUInt16BE(2), write.subarray(4).toString()]).toEqual([5, 4, "Only reading is served\0"]);
    const malformed = await answer(Buffer.from("\0\x01file", "latin1"));
    expect([malformed.readUInt16BE(0), malformed.readUInt16BE(2)]).toEqual([5, 4]);
  });

  it(`does not agree a wait longer than ${MAX_TIMEOUT_S} s (a client asking 255 s held a socket 25 minutes)`, () => {
    expect(negotiate({ timeout: String(MAX_TIMEOUT_S) }, 1)).toEqual({ timeout: String(MAX_TIMEOUT_S) });
    expect(negotiate({ timeout: "255" }, 1)).toEqual({});
  });

  it("reads requests and agrees options as RFC 2347-2349 say", () => {
    expect(parseRequest(Buffer.from("\0\x01grub/grub.cfg\0OCTET\0BLKSIZE\x001468\0tsize\x000\0", "latin1"))).toEqual({
      opcode: 1,
      file: "grub/grub.cfg",
      mode: "octet",
      options: { blksize: "1468", tsize: "0" },
    });
    expect(negotiate({ blksize: "65464", tsize: "0", timeout: "3" }, 1234)).toEqual({ blksize: "1468", tsize: "1234", timeout: "3" });
    expect(negotiate({ blksize: "4", timeout: "0", windowsize: "4" }, 1)).toEqual({});
    expect(negotiate({}, 1)).toEqual({});
  });
});
