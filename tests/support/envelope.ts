/**
 * The keys of an event as a hook receives it: RackHD's envelope (on-core's publishExternalEvent:
 * type, action, severity, typeId, nodeId, data, version, createdAt) and the two this service adds
 * (id, sequence), sorted. Written out here, not read from the code, so that a test can fail.
 */
export const ENVELOPE_KEYS = ["action", "createdAt", "data", "id", "nodeId", "sequence", "severity", "type", "typeId", "version"];
