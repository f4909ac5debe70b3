import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { GRUB_MACHINE_FILE, isSharedFilePath, RELAY_ROUTES, TFTP_FILES } from "../lib/wire/relay";
import { askService, type BootProxyOptions, listenAddress } from "./bootProxy";
import { hostNeighbours, macOfAddress, macOfLease } from "./neighbours";
import { type SharedFiles, sharedFiles } from "./sharedFiles";

/**
 * The relay's TFTP server (issue 38): what a UEFI machine with Secure Boot on fetches before it
 * can speak HTTP. Its firmware's PXE loads shim (`shimx64.efi`), shim loads GRUB (`grubx64.efi`),
 * and Debian's signed network GRUB, which has no HTTP, fetches its script and the kernel and
 * initrd by TFTP too. Read-only: RFC 1350 with the blksize, tsize and timeout options (RFC
 * 2347-2349). It serves:
 * - `uefi.efi`: the loader the service chooses for the machine asking (`/profiles/loader`, by the MAC
 *   the host's neighbour table holds for its address): Debian's shim, or iPXE (`snponly.efi`);
 * - `grub/grub.cfg`: a few lines that send GRUB to its own machine's script, by the MAC it booted from;
 * - `grub/machine/<mac>`: that script, from the service (`/profiles?macs=<mac>&loader=grub`), only to
 *   the address that holds that MAC (the host's neighbour table, or the site's DHCP leases where the
 *   machine is not a neighbour): the script carries the machine's boot token, from which its install
 *   script and credentials follow, so another host of the site asking by its MAC gets "Access violation";
 * - `shimx64.efi`, `grubx64.efi`, `mmx64.efi`: the signed loaders the service keeps at /common/, and
 *   iPXE's (`snponly.efi`, `ipxe.efi`, `undionly.kpxe`) where a site published them there;
 * - `common/<file>` and `api/<version>/files/<file>` (`/latest`, `md5/…`): the kernels and initrds
 *   GRUB scripts name, the same for every machine.
 * Anything else is "File not found": names are letters, digits, `.`, `_`, `-`, `:` and `/` only
 * (and a query of the same and `=&%~`, as GRUB scripts name a file with its machine's token), with no `..` (a backslash is a separator to a URL parser: `common/..\api\…` reached any route).
 * Bounded against a hostile host of the site (issue 50): at most MAX_TRANSFERS transfers at once
 * (PER_CLIENT from one address), a client's `timeout` option up to MAX_TIMEOUT_S, the shared files
 * kept up to SHARED_MAX_BYTES. A reply's packets go to where the last acknowledgement came
 * from (same host): a NAT between (QEMU's user network, some firewalls) may change the port.
 */
export interface TftpOptions extends Pick<BootProxyOptions, "api" | "token" | "log"> {
  /** Where to listen, e.g. 0.0.0.0:69. */
  listen: string;
  /** The relay's HTTP boot server as the machines reach it: the service renders it into their scripts. */
  publicUrl: string;
  /** How long a packet is waited for before it is sent again (default 1 s; a client's `timeout` option wins). */
  timeoutMs?: number;
  /** The host's neighbour table, as /proc/net/arp holds it (the default), to find a machine's MAC by its address. */
  neighbours?: () => string;
  /** The site's DHCP leases (dnsmasq's lease file), for machines that are not neighbours (a DHCP relay between). */
  leases?: () => string;
  /** The most bytes of shared files kept (default SHARED_MAX_BYTES). */
  sharedMaxBytes?: number;
}

/** The file every UEFI machine's DHCP may name: the loader the service chooses for it. */
export const UEFI_FILE = TFTP_FILES.uefiLoader;

const OP = { RRQ: 1, WRQ: 2, DATA: 3, ACK: 4, ERROR: 5, OACK: 6 } as const;
const ERR = { undefined: 0, notFound: 1, accessViolation: 2, illegal: 4 } as const;
/** The loaders kept at /common/: Secure Boot's signed ones, and iPXE's for the machines without it (if published). */
const LOADERS = new Set(["shimx64.efi", "grubx64.efi", "mmx64.efi", "snponly.efi", "ipxe.efi", "undionly.kpxe"]);
/** The largest block it sends: a 1500-byte Ethernet frame's payload after the IP, UDP and TFTP headers. */
const MAX_BLOCK = 1468;
const RETRIES = 5;
/** Transfers at once, and from one address: each holds a socket (an open file) until it ends. */
export const MAX_TRANSFERS = 64;
export const PER_CLIENT = 8;
/** The longest wait for an acknowledgement a client may ask (RFC 2349 allows 255 s: six tries held a socket 25 minutes). */
export const MAX_TIMEOUT_S = 5;
/** A TFTP name: the boot files' characters only, and no `..`. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._:/-]{0,254}(\?[A-Za-z0-9._~:=&%-]{0,1024})?$/;
const isSafeName = (name: string): boolean => SAFE_NAME.test(name) && !name.split("?")[0].split("/").includes("..");

/** GRUB's first script, the same for every machine: it sources the one for the MAC it booted from. */
export const GRUB_CFG = [
  "# The relay's: each machine's own GRUB script comes from the provisioning service, by the MAC it booted from.",
  `source (tftp)/${TFTP_FILES.grubMachine("$net_default_mac")}`,
  "echo 'The provisioning service gave no GRUB script for this machine through the relay'",
  "sleep 5",
  "exit",
  "",
].join("\n");

class TftpError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A read request: the file, its mode, and its options (names in lowercase). */
export function parseRequest(packet: Buffer): { opcode: number; file: string; mode: string; options: Record<string, string> } {
  const opcode = packet.readUInt16BE(0);
  const fields = packet.subarray(2).toString("latin1").split("\0");
  if (fields.length < 3 || fields.at(-1) !== "") throw new TftpError(ERR.illegal, "Malformed request");
  const [file, mode, ...rest] = fields.slice(0, -1);
  const options: Record<string, string> = {};
  for (let i = 0; i + 1 < rest.length; i += 2) options[rest[i].toLowerCase()] = rest[i + 1];
  return { opcode, file, mode: mode.toLowerCase(), options };
}

const errorPacket = (code: number, message: string): Buffer =>
  Buffer.concat([Buffer.from([0, OP.ERROR, 0, code]), Buffer.from(`${message}\0`, "latin1")]);

/** The loader the service chooses for the machine at `machine`: its file's name, and why that one. */
async function chosenLoader(options: TftpOptions, machine: string): Promise<{ file: string; because: string }> {
  const mac = macOfAddress(machine, (options.neighbours ?? hostNeighbours)());
  const answer = await askService(options, RELAY_ROUTES.loader(mac), {
    machine,
    base: options.publicUrl,
  });
  if (!answer.ok) throw new TftpError(ERR.undefined, `The provisioning service answered ${answer.status}`);
  const { file, because } = (await answer.json()) as { file?: unknown; because?: unknown };
  if (typeof file !== "string" || !LOADERS.has(file)) throw new TftpError(ERR.undefined, "The provisioning service named no loader");
  return { file, because: String(because) };
}

/** Whether `machine` holds `mac`: by the host's neighbour table, else by the site's DHCP leases. */
function holdsMac(options: TftpOptions, machine: string, mac: string): boolean {
  const wanted = mac.toLowerCase();
  if (macOfAddress(machine, (options.neighbours ?? hostNeighbours)()) === wanted) return true;
  return options.leases !== undefined && macOfLease(machine, options.leases()) === wanted;
}

/** What a file name is, fetched from the service where it must be. */
async function contents(options: TftpOptions, file: string, machine: string, files: SharedFiles): Promise<Buffer> {
  const name = file.replace(/^\/+/, "");
  if (!isSafeName(name)) throw new TftpError(ERR.notFound, "File not found");
  if (name === TFTP_FILES.grubConfig) return Buffer.from(GRUB_CFG);
  if (name === UEFI_FILE) {
    const loader = await chosenLoader(options, machine);
    options.log?.(`tftp: ${machine} ${UEFI_FILE} is ${loader.file} (${loader.because})`);
    return contents(options, loader.file, machine, files);
  }
  const mac = GRUB_MACHINE_FILE.exec(name)?.[1];
  if (mac && !holdsMac(options, machine, mac)) {
    throw new TftpError(ERR.accessViolation, "A machine's own script is served only to the address that holds its MAC");
  }
  const path = mac
    ? RELAY_ROUTES.grubScript(mac)
    : LOADERS.has(name)
      ? `/common/${name}`
      : isSharedFilePath(`/${name.split("?")[0]}`)
        ? `/${name}`
        : undefined;
  if (!path) throw new TftpError(ERR.notFound, "File not found");
  const fetchIt = async () => {
    const answer = await askService(options, path, { machine, base: options.publicUrl });
    if (answer.status === 404) throw new TftpError(ERR.notFound, "File not found");
    if (!answer.ok) throw new TftpError(ERR.undefined, `The provisioning service answered ${answer.status}`);
    return Buffer.from(await answer.arrayBuffer());
  };
  // A machine's own script is fetched for it alone; the files are the same for every machine,
  // whatever query names them (a machine's token, or a host's `?copy=N` to fetch a file anew each time): kept by their path.
  return mac ? fetchIt() : files(path.split("?")[0], fetchIt);
}

/** The options it takes, as it answers them in its OACK; empty when the client asked none it knows. */
export function negotiate(asked: Record<string, string>, size: number): Record<string, string> {
  const agreed: Record<string, string> = {};
  const blksize = Number(asked.blksize);
  if (Number.isInteger(blksize) && blksize >= 8) agreed.blksize = String(Math.min(blksize, MAX_BLOCK));
  if (asked.tsize !== undefined) agreed.tsize = String(size);
  // A longer wait is not agreed (RFC 2347: the server leaves out an option it does not take).
  const timeout = Number(asked.timeout);
  if (Number.isInteger(timeout) && timeout >= 1 && timeout <= MAX_TIMEOUT_S) agreed.timeout = String(timeout);
  return agreed;
}

/** Sends `data` to the client on a socket of its own: OACK first when options were agreed, then block after block. */
function transfer(socket: Socket, client: RemoteInfo, data: Buffer, agreed: Record<string, string>, baseTimeoutMs: number): Promise<void> {
  const size = Number(agreed.blksize ?? 512);
  const timeoutMs = agreed.timeout ? Number(agreed.timeout) * 1000 : baseTimeoutMs;
  const blocks = Math.floor(data.length / size) + 1;
  let peer = { address: client.address, port: client.port };
  return new Promise((resolve, reject) => {
    let block = Object.keys(agreed).length > 0 ? 0 : 1;
    let tries = 0;
    let timer: NodeJS.Timeout | undefined;
    const packet = (): Buffer => {
      if (block === 0) {
        const fields = Object.entries(agreed).flat();
        return Buffer.concat([Buffer.from([0, OP.OACK]), Buffer.from(`${fields.join("\0")}\0`, "latin1")]);
      }
      const header = Buffer.from([0, OP.DATA, (block >> 8) & 0xff, block & 0xff]);
      return Buffer.concat([header, data.subarray((block - 1) * size, block * size)]);
    };
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.removeAllListeners("message");
      if (error) reject(error);
      else resolve();
    };
    const send = () => {
      if (tries++ > RETRIES) return finish(new Error(`no acknowledgement of block ${block} after ${RETRIES} tries`));
      socket.send(packet(), peer.port, peer.address);
      clearTimeout(timer);
      timer = setTimeout(send, timeoutMs);
    };
    socket.on("message", (message, from) => {
      if (from.address !== client.address || message.length < 4) return;
      const opcode = message.readUInt16BE(0);
      // A firmware's PXE asks a file's size first (tsize) and stops after the OACK: an end, not a failure.
      if (opcode === OP.ERROR && block === 0) return finish();
      if (opcode === OP.ERROR)
        return finish(new Error(`the client stopped: ${message.subarray(4).toString("latin1").replace(/\0.*$/, "")}`));
      // Block numbers wrap at 65,536: an acknowledgement is matched on its low 16 bits.
      if (opcode !== OP.ACK || message.readUInt16BE(2) !== (block & 0xffff)) return;
      peer = { address: from.address, port: from.port };
      if (block === blocks) return finish();
      block += 1;
      tries = 0;
      send();
    });
    send();
  });
}

export async function startTftpServer(options: TftpOptions): Promise<{ port: number; close: () => Promise<void> }> {
  const { host, port: listenPort } = listenAddress(options.listen);
  const server = createSocket("udp4");
  const files = sharedFiles(options.sharedMaxBytes);
  /** The requests being answered, by client address, port and packet: a copy resent meanwhile is the same request. */
  const answering = new Set<string>();
  /** Transfers under way, by client address. */
  const perClient = new Map<string, number>();
  server.on("message", (message, client) => {
    const request = `${client.address}:${client.port} ${message.toString("latin1")}`;
    if (answering.has(request)) return;
    const ofClient = perClient.get(client.address) ?? 0;
    if (answering.size >= MAX_TRANSFERS || ofClient >= PER_CLIENT) {
      // Answered from the server's own socket: a busy relay opens no socket for it.
      server.send(errorPacket(ERR.undefined, "The relay is busy: try again"), client.port, client.address);
      return;
    }
    answering.add(request);
    perClient.set(client.address, ofClient + 1);
    void serve(options, message, client, files, host)
      .catch((error: Error) => options.log?.(`tftp: ${client.address}: ${error.message}`))
      .finally(() => {
        answering.delete(request);
        const left = (perClient.get(client.address) ?? 1) - 1;
        if (left > 0) perClient.set(client.address, left);
        else perClient.delete(client.address);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.bind(listenPort, host, () => resolve());
  });
  const { port } = server.address();
  options.log?.(`tftp: serving the site's machines on ${host}:${port}`);
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * One request: a socket of its own (its transfer id) on the address the server listens on (bound
 * to every address, a transfer would answer from, and be reachable on, interfaces `--tftp` left
 * out), the file fetched, then sent or refused.
 */
async function serve(options: TftpOptions, message: Buffer, client: RemoteInfo, files: SharedFiles, host: string): Promise<void> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, host, () => resolve()));
  try {
    const request = parseRequest(message);
    if (request.opcode !== OP.RRQ) throw new TftpError(ERR.illegal, "Only reading is served");
    const data = await contents(options, request.file, client.address, files);
    options.log?.(`tftp: ${client.address} ${request.file} (${data.length} bytes)`);
    await transfer(socket, client, data, negotiate(request.options, data.length), options.timeoutMs ?? 1000);
  } catch (error) {
    // The machine hears why (a service it cannot reach is "undefined", TFTP's code 0); the log says more.
    const refusal = error instanceof TftpError ? error : new TftpError(ERR.undefined, "The relay could not serve this file");
    socket.send(errorPacket(refusal.code, refusal.message), client.port, client.address);
    if (!(error instanceof TftpError)) throw error;
  } finally {
    // The last packet must leave before its socket closes.
    setTimeout(() => socket.close(), 50);
  }
}
