/** One JSON object per line on stdout, which CloudWatch stores as one event each. */
export function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}
