import { currentInvocation } from "./invocation";

/** The levels, least to most severe; LOG_LEVEL drops the lines below it. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL (lib/config/settings.ts checks it at start); a logger never fails, so anything else is `info`. */
const threshold = (): number => {
  const index = LOG_LEVELS.indexOf(process.env.LOG_LEVEL?.trim().toLowerCase() as LogLevel);
  return index < 0 ? 1 : index;
};

/** Whether lines of `level` are written: a caller skips building a line nobody reads. */
export const logs = (level: LogLevel): boolean => LOG_LEVELS.indexOf(level) >= threshold();

/**
 * One JSON object per line on stdout, which CloudWatch stores as one event each: the time, the
 * level, the message, then the running invocation's fields (its function, request id, correlation
 * id, and the node and workflow it is about, so that one query finds a node's whole boot), then
 * the line's own. Callers never pass secrets: no line carries a query, a header or a body.
 */
export function logLine(fields: { level: LogLevel; msg: string } & Record<string, unknown>): void {
  if (!logs(fields.level)) return;
  const { level, msg, ...rest } = fields;
  const context = currentInvocation()?.fields;
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...context, ...rest })}\n`);
}
