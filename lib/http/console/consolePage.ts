import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import assets from "console-assets";

export interface ConsoleFile {
  body: string;
  contentType: string;
  /** The body gzipped, made on first use: API Gateway's HTTP APIs compress nothing themselves. */
  gzipped: () => Buffer;
}

function consoleFile(body: string, contentType: string): ConsoleFile {
  let gzipped: Buffer | undefined;
  return { body, contentType, gzipped: () => (gzipped ??= gzipSync(body, { level: 9 })) };
}

const fingerprint = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 12);

/**
 * The console's two assets, named by their content: a name serves the same bytes forever, so it
 * may be cached for a year, and a new deployment's page names new files.
 */
export const CONSOLE_FILES: ReadonlyMap<string, ConsoleFile> = new Map([
  [`app-${fingerprint(assets.js)}.js`, consoleFile(assets.js, "text/javascript; charset=utf-8")],
  [`app-${fingerprint(assets.css)}.css`, consoleFile(assets.css, "text/css; charset=utf-8")],
]);

const [scriptName, styleName] = [...CONSOLE_FILES.keys()];

/** Only the service itself: scripts, styles and API calls; nothing inline, nothing from elsewhere. */
export const CONSOLE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page: an empty shell the script fills; `prefix` is whatever precedes /console (a stage, a base path). */
export function consoleHtml(prefix: string): string {
  const assetsAt = `${prefix}/console/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Provisioning console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetsAt}/${styleName}">
</head>
<body>
<div id="console"></div>
<noscript>The console needs JavaScript.</noscript>
<script src="${assetsAt}/${scriptName}"></script>
</body>
</html>
`;
}
