/** One test file's times, as tests/support/testTimesReporter.js records them. */
export interface FileTimes {
  tier: string;
  file: string;
  start: number;
  end: number;
  tests: { name: string; ms: number; status: string }[];
}
export function formatTiers(files: FileTimes[]): string;
export function formatSlowest(files: FileTimes[], count: number): string;
export const TIMES_FOLDER: string;
/** Every jest run's files recorded in `folder` (reports/test-times/ by default), together. */
export function readTimes(folder?: string): FileTimes[];
/** Each file's seconds keyed "tier path", longest first (tests/support/fileSeconds.json). */
export function fileSeconds(files: FileTimes[]): Record<string, number>;
