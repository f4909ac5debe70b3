import { rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { labDown, plannedMachine, readLabState, redfishMachineArgs, watchLab } from "./lab";
import { QEMU_FILES } from "./qemu";
import { qmpMachine } from "./qmpMachine";
import { startRedfishBmc } from "./redfishBmc";

/**
 * The lab's long-running processes of its own (`up` starts them detached; `down` ends them):
 *
 * - `api-host SOCKET HOST PORT` (in the host's namespace) and `api-namespace SOCKET PORT` (in the
 *   lab's): the service reached from inside the namespace. A Unix socket in the lab's folder is the
 *   one thing both namespaces share, so the two ends pass the bytes through it: the relay inside
 *   dials 127.0.0.1:PORT and reaches the service at HOST:PORT, TLS and all (for a deployed stage the
 *   namespace's hosts file names 127.0.0.1 for HOST, so its certificate still matches). No veth, no
 *   route and no NAT on the host: the lab's machines reach nothing but their relay.
 * - `redfish STATE NAME`: a machine's Redfish BMC (lab/redfishBmc.ts, the stand-in) on its own
 *   loopback address in the namespace, powering the machine's QEMU through QMP.
 * - `watch OWNER DIR NAMESPACE` (in the host's namespace): a lab with an owner (a test's process)
 *   is taken down when its owner ends without doing so (`watchLab`).
 */

/** Every connection to `server` is piped to a new one from `dial`; either end closing closes both. */
function pipeTo(server: Server, dial: () => Socket): Server {
  return server.on("connection", (inbound) => {
    const outbound = dial();
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on("error", close).on("close", close);
    outbound.on("error", close).on("close", close);
  });
}

async function main([mode, ...args]: string[]): Promise<void> {
  if (mode === "api-host") {
    const [socket, host, port] = args;
    rmSync(socket, { force: true });
    pipeTo(createServer(), () => connect(Number(port), host)).listen(socket);
    return;
  }
  if (mode === "api-namespace") {
    const [socket, port] = args;
    // Loopback only, both families ("localhost" may be either): never the site's bridge, which the machines are on.
    for (const address of ["127.0.0.1", "::1"])
      pipeTo(createServer(), () => connect(socket))
        .on("error", (error) => process.stderr.write(`api-namespace ${address}: ${error.message}\n`))
        .listen(Number(port), address);
    return;
  }
  if (mode === "redfish") {
    const [stateFile, name] = args;
    const state = readLabState(stateFile);
    const machine = plannedMachine(state, name);
    if (machine.bmc?.kind !== "redfish") throw new Error(`${name} has no Redfish BMC in ${stateFile}`);
    const power = qmpMachine(QEMU_FILES.qemu, redfishMachineArgs(state, name), machine.bmc.dir, machine.serialLog);
    const bmc = await startRedfishBmc({
      user: machine.bmc.user,
      password: state.bmcPasswords[name],
      machine: power,
      listen: { address: machine.bmc.address, port: machine.bmc.port },
    });
    writeFileSync(join(machine.bmc.dir, "ca.pem"), bmc.ca);
    process.stdout.write(`redfish: ${name}'s BMC at ${bmc.url}\n`);
    const stop = () => void power.stop().then(() => process.exit(0));
    process.on("SIGTERM", stop).on("SIGINT", stop);
    return;
  }
  if (mode === "watch") {
    const [owner, dir, namespace] = args;
    const say = (line: string) => process.stdout.write(`${line}\n`);
    const how = await watchLab({
      owner: Number(owner),
      dir,
      everyMs: 2000,
      down: async () => {
        say(`the lab's owner (process ${owner}) ended without taking it down: taking it down`);
        for (const line of await labDown(dir, namespace, say)) say(`removed: ${line}`);
      },
    });
    say(`watch ended: ${how}`);
    return;
  }
  throw new Error(`unknown mode ${mode}: api-host, api-namespace, redfish or watch`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`lab daemon: ${error.message}\n`);
  process.exit(1);
});
