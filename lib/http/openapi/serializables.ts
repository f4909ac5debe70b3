import { NewNodeBody, ObmSettingsBody } from "../schemas/provisioning";

/**
 * RackHD 1.1's serializable schemas (GET /schemas), by their RackHD ids. Node and OBM are the
 * schemas that check those bodies here; Lookup and Snmp are RackHD's, as the reference gives them.
 */
export const SERIALIZABLES: readonly Record<string, unknown>[] = [
  { id: "Serializables.V1.Node", $schema: "http://json-schema.org/draft-07/schema#", ...NewNodeBody },
  {
    id: "Serializables.V1.Obm",
    $schema: "http://json-schema.org/draft-07/schema#",
    ...ObmSettingsBody.else,
    required: ["service", "config"],
  },
  {
    id: "Serializables.V1.Lookup",
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { macAddress: { type: "string" }, ipAddress: { type: "string" }, node: { type: "string" } },
    required: ["macAddress"],
  },
  {
    id: "Serializables.V1.Snmp",
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { host: { type: "string" }, community: { type: "string" } },
    required: ["host", "community"],
  },
];

export const serializable = (id: string): Record<string, unknown> | undefined => SERIALIZABLES.find((schema) => schema.id === id);
