import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startBootProxy } from "./bootProxy";
import { defaultDrivers } from "./drivers";
import { redact } from "./redact";
import { runRelay } from "./relay";
import { startTftpServer } from "./tftpServer";
import { RELAY_VERSION } from "./version";
import { mediaLibrary } from "./virtualMedia";

/**
 * `npm run relay -- --api URL --token-file FILE` (or RELAY_TOKEN in the environment; a token on the
 * command line would show in `ps`). Built into one file for a site host: `npm run relay:build`
 * writes dist/relay.cjs, which runs on plain Node 20 or later (`node relay.cjs --api …`).
 */
const USAGE = [
  "usage: relay --api https://service.example [--token-file FILE] [--listen 0.0.0.0:8080 [--public-url http://10.1.0.2:8080]",
  "             [--tftp 0.0.0.0:69 [--dhcp-leases /var/lib/misc/dnsmasq.leases]]] [--busy-poll-ms 500] [--idle-poll-ms 5000] [--no-push]",
  "token: --token-file, or RELAY_TOKEN in the environment. --listen: serve the site's booting machines.",
  "--tftp: serve shim, GRUB and its scripts by TFTP to machines with Secure Boot on (needs --listen and --public-url).",
  "--dhcp-leases: the site's dnsmasq leases, for machines that are not the relay host's neighbours (a machine's own",
  "  GRUB script goes only to the address that holds its MAC: the neighbour table, else this file).",
  "--no-push: poll only (every --busy-poll-ms while busy, --idle-poll-ms when idle), holding no push connection; by default",
  "  the relay holds the WebSocket the service names and hears of its jobs at once (docs/relay.md).",
  "--listen with --public-url also serves virtual media images (a Redfish BMC boots a machine from one where the site has no",
  "  DHCP to change; needs xorriso, grub-pc-bin, dosfstools and mtools on this host: docs/relay.md).",
].join("\n");

/** The lease file, read when asked (dnsmasq rewrites it); empty while it cannot be read. */
const leaseFile = (path: string) => () => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        api: { type: "string" },
        "token-file": { type: "string" },
        "busy-poll-ms": { type: "string" },
        "idle-poll-ms": { type: "string" },
        listen: { type: "string" },
        "public-url": { type: "string" },
        tftp: { type: "string" },
        "dhcp-leases": { type: "string" },
        "no-push": { type: "boolean" },
        version: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.version) {
    process.stdout.write(`${RELAY_VERSION}\n`);
    return 0;
  }
  const file = values["token-file"];
  const token = typeof file === "string" ? readFileSync(file, "utf8").trim() : process.env.RELAY_TOKEN?.trim();
  if (values.help || typeof values.api !== "string" || !token) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (typeof values.tftp === "string" && (typeof values.listen !== "string" || typeof values["public-url"] !== "string")) {
    process.stderr.write(
      `--tftp needs --listen and --public-url: GRUB's scripts send the machine to the relay's HTTP boot server\n${USAGE}\n`,
    );
    return 2;
  }
  const stop = new AbortController();
  // Every line is redacted here, once: boot tokens and credentials never reach the log.
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${redact(line)}\n`);
  // Virtual media images, built for a Redfish BMC's insert and served by the boot server.
  const publicUrl = values["public-url"];
  const media =
    typeof values.listen === "string" && typeof publicUrl === "string"
      ? mediaLibrary({ api: values.api, token, publicUrl, log })
      : undefined;
  // The boot server: the site's machines boot from it (their DHCP boot file points here).
  const boot =
    typeof values.listen === "string"
      ? await startBootProxy({
          api: values.api,
          token,
          listen: values.listen,
          publicUrl: typeof publicUrl === "string" ? publicUrl : undefined,
          log,
          serveLocal: media?.serve,
        })
      : undefined;
  const tftp =
    typeof values.tftp === "string"
      ? await startTftpServer({
          api: values.api,
          token,
          listen: values.tftp,
          publicUrl: String(values["public-url"]),
          log,
          ...(typeof values["dhcp-leases"] === "string" && { leases: leaseFile(values["dhcp-leases"]) }),
        })
      : undefined;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop.abort());
  await runRelay({
    api: values.api,
    token,
    drivers: defaultDrivers(media),
    busyPollMs: Number(values["busy-poll-ms"] ?? 500),
    idlePollMs: Number(values["idle-poll-ms"] ?? 5_000),
    push: values["no-push"] !== true,
    signal: stop.signal,
    log,
  });
  await boot?.close();
  await tftp?.close();
  media?.close();
  return 0;
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => process.exit(code));
