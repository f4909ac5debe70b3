import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cacheDir } from "../microkernel/assets";
import { namespacePids } from "./host";
import { callApi, type LabState, labDown, labUp, obmSetting, plannedMachine, readLabState, stateFile } from "./lab";
import { LabFileError, machinesFromFlags, parseLabFile } from "./machines";
import { labSshArgv, leasedAddress, opsUserData } from "./ssh";

/**
 * `npm run lab -- <command>`: a virtual site on this host (docs/lab.md). Run as root.
 */
const USAGE = `usage: npm run lab -- up [--api http://localhost:3000] [--user name:password] [--file lab.yml | --machine NAME[,KEY=VALUE…]…] [--octet 77]
       npm run lab -- status [--json]
       npm run lab -- console NAME           follow a machine's serial console (Ctrl-C leaves it running)
       npm run lab -- ssh NAME [COMMAND…]    log in to an installed machine as ops, at the address the service reports
       npm run lab -- obm NAME               the machine's OBM setting, for POST /nodes (its BMC as the relay reaches it)
       npm run lab -- user-data NAME         a user-data body for PUT /nodes/{id}/user-data: user ops with the lab's SSH key
       npm run lab -- down
--machine (again for each machine): firmware=bios|uefi|uefi-secure-boot, bmc=ipmi|redfish|none, memory=MiB, nic=MODEL, disk=BUS[:GiB]
--user: an operator's name:password where the service asks for one (or LAB_API_USER in the environment, which ps does not show)
--no-dhcp (up): a site with no DHCP; its machines boot by their Redfish BMC's virtual media, with static addresses (docs/lab.md)
--vlan N (up, again for each): VLAN N tagged on the site's network, the host at 10.<octet>.N.1/24 on it (docs/network.md)
every command takes --dir DIR (default ~/.cache/lambda-tasks-provisioning/lab) and --octet N (the site is 10.N.0.0/24, default 77)`;

const defaultDir = (): string => join(cacheDir(), "..", "lab");

/** The address a machine has on the site: what the service reports for its NICs, else the site's DHCP lease. */
async function addressOf(state: LabState, name: string): Promise<{ address?: string; from: string }> {
  const macs = plannedMachine(state, name).machine.nics.map((nic) => nic.mac);
  const subnet = state.plan.hostIp.replace(/\.1$/, ".");
  try {
    const node = (await callApi(state.api, "GET", `/nodes/${macs[0]}`)) as {
      addresses?: { nics?: { mac: string; addresses: string[] }[] };
    };
    const reported = (node.addresses?.nics ?? []).flatMap((nic) => nic.addresses).map((each) => each.split("/")[0]);
    const onSite = reported.find((each) => each.startsWith(subnet));
    if (onSite) return { address: onSite, from: "the service" };
  } catch {
    // not a node yet, or the service is away: the lease says where it is
  }
  const leased = leasedAddress(state.plan.leaseFile, macs);
  return leased ? { address: leased, from: "the site's DHCP lease" } : { from: "no lease yet" };
}

async function status(state: LabState, json: boolean): Promise<string> {
  const inside = namespacePids(state.plan.namespace);
  const machines = await Promise.all(
    state.plan.machines.map(async (planned) => {
      const on = inside.some((each) => each.command.includes(`-name ${planned.machine.name} `));
      const where = await addressOf(state, planned.machine.name);
      return {
        name: planned.machine.name,
        firmware: planned.machine.firmware,
        power: on ? "on" : "off",
        macs: planned.machine.nics.map((nic) => nic.mac),
        bmc: planned.bmc
          ? {
              kind: planned.bmc.kind,
              address: planned.bmc.address,
              user: planned.bmc.user,
              password: state.bmcPasswords[planned.machine.name],
              ...(planned.bmc.kind === "redfish" && { ca: join(planned.bmc.dir, "ca.pem") }),
            }
          : undefined,
        address: where.address ?? null,
        addressFrom: where.from,
        serialLog: planned.serialLog,
      };
    }),
  );
  const relay = inside.some((each) => each.command.includes("relay/cli.ts"));
  if (json)
    return JSON.stringify(
      { namespace: state.plan.namespace, site: state.site, relay: { url: state.plan.relayUrl, running: relay }, machines },
      null,
      2,
    );
  return [
    `lab ${state.plan.namespace}: site ${state.site?.name} (${state.site?.id}) on ${state.api.url}; ${state.kvm.kvm ? `KVM${state.kvm.smm ? "" : " (Secure Boot machines: software emulation)"}` : "software emulation (no KVM)"}`,
    `relay: ${relay ? "running" : "NOT running"} at ${state.plan.relayUrl}, TFTP ${state.plan.relayTftp}; log ${join(state.plan.dir, "relay.log")}`,
    ...machines.map((machine) =>
      [
        `${machine.name}: ${machine.firmware}, ${machine.power}, ${machine.macs.join(" ")}`,
        machine.bmc
          ? `  BMC: ${machine.bmc.kind} at ${machine.bmc.address}, user ${machine.bmc.user}, password ${machine.bmc.password}${machine.bmc.ca ? `, certificate ${machine.bmc.ca}` : ""}`
          : "  BMC: none",
        `  address: ${machine.address ?? "-"} (${machine.addressFrom})`,
        `  serial console: ${machine.serialLog}`,
      ].join("\n"),
    ),
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = (args: string[]) =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        api: { type: "string" },
        user: { type: "string" },
        file: { type: "string" },
        machine: { type: "string", multiple: true },
        dir: { type: "string" },
        octet: { type: "string" },
        json: { type: "boolean" },
        "no-dhcp": { type: "boolean" },
        vlan: { type: "string", multiple: true },
        help: { type: "boolean" },
      },
    });
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, name, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const dir = values.dir ?? defaultDir();
  const octet = Number(values.octet ?? 77);
  const namespace = `lab${octet}`;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const loaded = (): LabState => {
    if (!existsSync(stateFile(dir))) throw new Error(`no lab is up in ${dir}: npm run lab -- up`);
    return readLabState(stateFile(dir));
  };
  const needName = () => {
    if (!name) throw new Error(`${command} needs a machine's name (npm run lab -- status lists them)`);
    return name;
  };
  try {
    switch (command) {
      case "up": {
        if (values.file && values.machine) throw new Error("give lab.yml (--file) or --machine, not both");
        const file = values.machine ? undefined : (values.file ?? (existsSync("lab.yml") ? "lab.yml" : undefined));
        const machines = values.machine ? machinesFromFlags(values.machine) : parseLabFile(file ? readFileSync(file, "utf8") : "");
        const api = {
          url: (values.api ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "").replace(/\/api\/[^/]+$/, ""),
          // LAB_API_USER keeps an operator's password out of `ps` (a flag shows there).
          user: values.user ?? process.env.LAB_API_USER,
        };
        say(`lab: ${machines.length} machines from ${values.machine ? "--machine" : (file ?? "the defaults")}, for ${api.url}`);
        const vlans = (values.vlan ?? []).map(Number);
        const state = await labUp({ api, dir, octet, machines, say, dhcp: !values["no-dhcp"], vlans });
        say(await status(state, false));
        return 0;
      }
      case "status":
        say(await status(loaded(), values.json === true));
        return 0;
      case "down": {
        const removed = await labDown(existsSync(stateFile(dir)) ? loaded().plan.dir : dir, namespace, say);
        say(removed.length > 0 ? `removed: ${removed.join(", ")}` : "nothing to remove");
        return 0;
      }
      case "console": {
        return spawnSync("tail", ["-n", "+1", "-F", plannedMachine(loaded(), needName()).serialLog], { stdio: "inherit" }).status ?? 0;
      }
      case "ssh": {
        const state = loaded();
        const where = await addressOf(state, needName());
        if (!where.address) throw new Error(`${name} has no address yet (${where.from})`);
        const login = labSshArgv(state.plan.namespace, state.sshKey, `ops@${where.address}`, rest);
        return spawnSync(login[0], login.slice(1), { stdio: "inherit" }).status ?? 1;
      }
      case "obm":
        say(JSON.stringify(obmSetting(loaded(), needName())));
        return 0;
      case "user-data": {
        const state = loaded();
        const { machine } = plannedMachine(state, needName());
        say(JSON.stringify({ userData: opsUserData(machine.name, readFileSync(`${state.sshKey}.pub`, "utf8").trim()) }));
        return 0;
      }
      default:
        process.stderr.write(`unknown command ${command}\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    process.stderr.write(error instanceof LabFileError ? `${error.message}\n` : `lab ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => process.exit(code));
