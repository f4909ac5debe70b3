import { LookupBody, NewNodeBody, ObmSettingsBody, SshBody } from "../provisioning/schemas";

/**
 * RackHD 1.1's serializable schemas (GET /schemas), by their RackHD ids (era C's Ssh too). Node,
 * OBM, Lookup and Ssh are the schemas that check those bodies here; Snmp is RackHD's, as the
 * reference gives it.
 */
export const SERIALIZABLES: readonly Record<string, unknown>[] = [
  { id: "Serializables.V1.Node", $schema: "http://json-schema.org/draft-07/schema#", ...NewNodeBody },
  {
    id: "Serializables.V1.Obm",
    $schema: "http://json-schema.org/draft-07/schema#",
    ...ObmSettingsBody.else,
    required: ["service", "config"],
  },
  { id: "Serializables.V1.Lookup", $schema: "http://json-schema.org/draft-07/schema#", ...LookupBody },
  { id: "Serializables.V1.Ssh", $schema: "http://json-schema.org/draft-07/schema#", ...SshBody, required: ["host", "user"] },
  {
    id: "Serializables.V1.Snmp",
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { host: { type: "string" }, community: { type: "string" } },
    required: ["host", "community"],
  },
];

export const serializable = (id: string): Record<string, unknown> | undefined => SERIALIZABLES.find((schema) => schema.id === id);
