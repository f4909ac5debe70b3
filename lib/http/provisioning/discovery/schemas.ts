import { objectId } from "../fields";

/** Southbound: the discovery microkernel's protocol: schemas. */

/**
 * POST /tasks/{identifier}: RackHD answered 201 to any JSON body and used what it could (the
 * command object with its `tasks`); so any JSON is taken here, and the domain picks out the
 * results it can use.
 */
export const CommandResultsBody = {
  description: "The command object handed out, with each command's stdout, stderr and error; any other JSON is taken and ignored",
  examples: [{ identifier: "5f2a1c3b4d5e6f7a8b9c0d1e", tasks: [{ cmd: "sudo dmidecode", stdout: "...", stderr: "", error: null }] }],
} as const;

/** GET /tasks/{identifier}: the commands for the node's microkernel. */
export const CommandSet = {
  type: "object",
  properties: {
    identifier: objectId,
    tasks: { type: "array", items: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } },
  },
  required: ["identifier", "tasks"],
} as const;

/** The microkernel's bootstrap.js, JavaScript for `node`. */
export const MicrokernelScript = { type: "string" } as const;
