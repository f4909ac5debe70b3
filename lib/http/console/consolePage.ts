import names from "console-assets/names";

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
<link rel="stylesheet" href="${assetsAt}/${names.style}">
</head>
<body>
<div id="console"></div>
<noscript>The console needs JavaScript.</noscript>
<script src="${assetsAt}/${names.script}"></script>
</body>
</html>
`;
}
