import { CONSOLE_FILES } from "../../lib/http/console/consolePage";
import { endpoint } from "../../lib/http/endpoint";
import { json } from "../../lib/http/responses";
import { consoleAsset } from "../../lib/http/routes/console";

/** A name is its content's hash: the same name is the same bytes forever. */
export const handler = endpoint(consoleAsset, async ({ params }) => {
  const file = CONSOLE_FILES.get(params.name);
  if (!file) return json(404, { message: `No console asset ${params.name} in this deployment: reload the console` });
  return {
    statusCode: 200,
    headers: {
      "content-type": file.contentType,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    },
    body: file.body,
  };
});
