import type { HttpResult } from "./event";
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS } from "./middleware/cors";

/** Answer to a CORS preflight; the cors middleware adds Access-Control-Allow-Origin. */
export const preflight = (): HttpResult => ({
  statusCode: 204,
  headers: {
    "access-control-allow-methods": CORS_ALLOW_METHODS,
    "access-control-allow-headers": CORS_ALLOW_HEADERS,
    "access-control-max-age": "600",
  },
  body: "",
});
