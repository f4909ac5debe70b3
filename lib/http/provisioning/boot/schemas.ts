import { NAME_MAX, name, version } from "../fields";

/** Southbound: what a booting machine calls (profiles, templates, the notification): schemas. */

export const VendorParams = {
  type: "object",
  properties: { version, vendor: name },
  required: ["version", "vendor"],
} as const;

/** POST /notification: any message; `nodeId` names the node whose install is done. */
export const NotificationBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { nodeId: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "Invalid node ID in query or body" } },
} as const;

/** POST /notification answers the message it was given. */
export const NotificationEcho = { type: "object" } as const;

/** iPXE scripts and install templates (text/plain). */
export const Script = { type: "string" } as const;

/** GET /profiles/loader: the network loader a UEFI machine is handed, its file, and why that one. */
export const UefiLoader = {
  type: "object",
  properties: {
    loader: { enum: ["ipxe", "grub"] },
    file: { enum: ["snponly.efi", "shimx64.efi"] },
    because: { enum: ["node", "secure-boot", "setting"] },
  },
  required: ["loader", "file", "because"],
  additionalProperties: false,
  examples: [{ loader: "grub", file: "shimx64.efi", because: "secure-boot" }],
} as const;
