import { ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { normalizeMac } from "../mac";
import { activeWorkflowOf, type WorkflowStores } from "../workflows/workflowService";

/** RackHD's answer for a MAC it does not know (GET /tasks/bootstrap.js). */
export const BOOTSTRAP_NOT_FOUND = "Not Found";

/**
 * GET /tasks/bootstrap.js?macAddress=: the script RackHD's microkernel pipes into `node`
 * (`curl …/tasks/bootstrap.js?macAddress=$MAC | node`): it polls the node's commands, runs each,
 * and posts what they printed back (RackHD's data/templates/bootstrap.js, written anew). Undefined
 * for a MAC no node has (the route answers RackHD's 404).
 */
export async function bootstrapScript(
  stores: WorkflowStores,
  macAddress: string | undefined,
  api: ApiContext,
  now: Date,
): Promise<string | undefined> {
  const mac = macAddress === undefined ? undefined : normalizeMac(macAddress);
  if (macAddress !== undefined && !mac) throw new ValidationError(`Invalid MAC address: ${macAddress}`);
  const node = mac ? await stores.nodes.find(mac) : undefined;
  if (!node) return undefined;
  const token = (await activeWorkflowOf(stores, node, now))?.bootToken;
  const url = `${api.base}/tasks/${node.id}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  return SCRIPT.replace("__TASKS_URL__", JSON.stringify(url)).replace("__IDENTIFIER__", JSON.stringify(node.id));
}

const SCRIPT = `// The discovery microkernel's loop: ask for commands, run them, post the results.
"use strict";
const { exec } = require("node:child_process");
const tasksUrl = __TASKS_URL__;
const identifier = __IDENTIFIER__;
const POLL_MS = 5000;

function run(task) {
  return new Promise((resolve) => {
    exec(task.cmd, { maxBuffer: 10 * 1024 * 1024 }, (error, stdout, stderr) => {
      task.stdout = stdout;
      task.stderr = stderr;
      task.error = error ? { killed: error.killed, code: error.code, signal: error.signal, cmd: error.cmd } : null;
      resolve(!error || (task.acceptedResponseCodes || []).includes(error.code));
    });
  });
}

async function fetchFile(url) {
  const name = url.split("/").pop();
  const response = await fetch(new URL(url, tasksUrl));
  require("node:fs").writeFileSync(name, Buffer.from(await response.arrayBuffer()), { mode: 0o555 });
}

async function loop() {
  for (;;) {
    const response = await fetch(tasksUrl).catch(() => undefined);
    const body = response && response.status === 200 ? await response.json().catch(() => undefined) : undefined;
    if (body && Array.isArray(body.tasks)) {
      for (const task of body.tasks) {
        if (task.downloadUrl) await fetchFile(task.downloadUrl);
        if (!(await run(task))) break;
      }
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const posted = await fetch(tasksUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => undefined);
        if (posted && posted.status < 300) break;
      }
      if (body.exit) return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

console.log("bootstrap: node " + identifier);
loop();
`;
