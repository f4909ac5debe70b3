/**
 * What a machine told the service about its install (issue 26): the events it reported in
 * cloud-init's webhook format, and the index of the logs it uploaded (their bytes are in the log
 * blobs). One record per node, for its current install: the next install starts it afresh. Every
 * part is bounded, so the record fits one DynamoDB item whatever a machine sends.
 */
export interface InstallReport {
  /** The node's id. */
  id: string;
  /** The install these reports belong to: the instance id it gave the machine. */
  instanceId: string;
  events: MachineEvent[];
  /** How many events were dropped to keep the report within REPORT_LIMITS.events. */
  eventsDropped?: number;
  logs: LogChunk[];
  /** When the service stops answering it (its bytes expire by the bucket's rule). */
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export const EVENT_TYPES = ["start", "progress", "finish"] as const;
export const EVENT_RESULTS = ["SUCCESS", "WARN", "FAIL"] as const;

/** One event, as cloud-init's webhook handler (and subiquity, curtin, the shipped scripts) posts it. */
export interface MachineEvent {
  /** When the service received it. */
  at: string;
  type: (typeof EVENT_TYPES)[number];
  name: string;
  description: string;
  result?: (typeof EVENT_RESULTS)[number];
  origin?: string;
  /** The machine's own clock (cloud-init's `timestamp`, epoch seconds), as it said. */
  timestamp?: number;
}

/** One uploaded piece of a log: `name` and `seq` (from 1) name it; its bytes are under `key`. */
export interface LogChunk {
  name: string;
  seq: number;
  bytes: number;
  key: string;
  at: string;
  /** Announced for a presigned upload and not yet read back. */
  pending?: boolean;
}

/** The bounds of one install's reports (a machine is no trusted client). */
export const REPORT_LIMITS = {
  events: 200,
  /** A full report keeps its first events and its latest ones: these many first. */
  eventsKeptFirst: 50,
  nameChars: 200,
  descriptionChars: 2000,
  /** The log chunks of one install, all logs together. */
  logChunks: 200,
  /** One chunk posted as a body; a larger one goes by a presigned upload. */
  inlineChunkBytes: 256 * 1024,
  /** One chunk by a presigned upload. */
  chunkBytes: 16 * 1024 * 1024,
  /** Every log of one install together. */
  totalLogBytes: 64 * 1024 * 1024,
  /** How long the reports and logs are answered (the bucket expires the bytes after as long). */
  keepDays: 14,
} as const;

/** A log's name: letters, digits, `.`, `_`, `-`, as a file name would be. */
export const LOG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
