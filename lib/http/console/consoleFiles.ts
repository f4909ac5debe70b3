import { gzipSync } from "node:zlib";
import files from "console-assets";

export interface ConsoleFile {
  body: string;
  contentType: string;
  /** The body gzipped, made on first use: API Gateway's HTTP APIs compress nothing themselves. */
  gzipped: () => Buffer;
}

/**
 * The console's two assets by name. A name is its content's hash (given at build time), so it
 * serves the same bytes forever and may be cached for a year; a new deployment's page names new files.
 */
export const CONSOLE_FILES: ReadonlyMap<string, ConsoleFile> = new Map(
  Object.entries(files).map(([name, { body, contentType }]) => {
    let gzipped: Buffer | undefined;
    return [name, { body, contentType, gzipped: () => (gzipped ??= gzipSync(body, { level: 9 })) }];
  }),
);
