import { CONSOLE_FILES } from "../../lib/http/console/consoleFiles";
import { consoleAsset } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { header } from "../../lib/http/event";
import { json } from "../../lib/http/responses";

/** A name is its content's hash: the same name is the same bytes forever. Gzipped for a browser that takes it. */
export const handler = endpoint(consoleAsset, async ({ event, params }) => {
  const file = CONSOLE_FILES.get(params.name);
  if (!file) return json(404, { message: `No console asset ${params.name} in this deployment: reload the console` });
  const headers = {
    "content-type": file.contentType,
    "cache-control": "public, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
    vary: "accept-encoding",
  };
  if (!/\bgzip\b/.test(header(event, "accept-encoding") ?? "")) return { statusCode: 200, headers, body: file.body };
  return {
    statusCode: 200,
    headers: { ...headers, "content-encoding": "gzip" },
    body: file.gzipped().toString("base64"),
    isBase64Encoded: true,
  };
});
