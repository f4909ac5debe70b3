import { type HandedOut, type Machine, runCommands, sampleMachine } from "../../scripts/microkernel";
import { api } from "./api";

const JSON_TYPE = { "content-type": "application/json" };

/** The tasks path (with its token) bootstrap.js polls, for a MAC a node has. */
export async function tasksPathFor(mac: string): Promise<string> {
  const script = await api({ method: "GET", path: `/api/current/tasks/bootstrap.js?macAddress=${encodeURIComponent(mac)}`, headers: {} });
  if (script.status !== 200) throw new Error(`bootstrap.js answered ${script.status}`);
  const url = new URL(JSON.parse(/^const tasksUrl = (".*");$/m.exec(script.raw)![1]) as string);
  return url.pathname + url.search;
}

/**
 * Plays the discovery microkernel against the in-process API (as scripts/microkernel.ts does over
 * HTTP): commands run against `machine`, results posted, until the reboot is handed out or nothing is.
 */
export async function runMicrokernel(
  mac: string,
  machine: Machine = sampleMachine(mac),
): Promise<{ exchanges: number; rebooted: boolean }> {
  const path = await tasksPathFor(mac);
  for (let exchanges = 0; exchanges < 50; exchanges += 1) {
    const answer = await api({ method: "GET", path, headers: {} });
    if (answer.status === 204) return { exchanges, rebooted: false };
    const body = answer.body as { tasks: HandedOut[] };
    if (body.tasks.some((task) => task.cmd === "sudo reboot")) return { exchanges, rebooted: true };
    runCommands(body.tasks, machine);
    const posted = await api({ method: "POST", path, headers: JSON_TYPE, body: JSON.stringify(body) });
    if (posted.status !== 201) throw new Error(`POST ${path} answered ${posted.status}: ${posted.raw}`);
  }
  throw new Error("The microkernel was never told to reboot");
}

/** A new machine PXE-boots (discovery starts) and its microkernel runs to the reboot. */
export async function discoverMachine(mac: string, machine?: Machine): Promise<void> {
  const profile = await api({ method: "GET", path: `/api/current/profiles?macs=${encodeURIComponent(mac)}`, headers: {} });
  if (!profile.raw.includes("Starting the discovery microkernel")) throw new Error(`Not the microkernel's profile:\n${profile.raw}`);
  const run = await runMicrokernel(mac, machine);
  if (!run.rebooted) throw new Error("Discovery did not end with the microkernel's reboot");
}
