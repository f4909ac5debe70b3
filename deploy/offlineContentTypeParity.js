/**
 * Serverless plugin, for `serverless offline` only: the request reaches the handler, and its
 * answer the client, as behind API Gateway's HTTP API, in three respects where serverless-offline
 * 14 differs.
 *
 * 1. A request with a body but no Content-Type arrives without one. serverless-offline fills in
 *    `application/json` (LambdaProxyIntegrationEventV2), so locally such a POST was accepted where
 *    the deployed API answers 400.
 * 2. A body that is not text arrives as its bytes, base64-encoded (`isBase64Encoded`), whatever
 *    its content type says, or when it has none. serverless-offline decodes most bodies as UTF-8,
 *    so `curl -T installer.iso` (no Content-Type, or a form type) stored a corrupted file locally.
 *    The HTTP API passes text types (text/*, JSON, XML, JavaScript) as text and the rest as bytes.
 *
 * 3. CORS (issue 35 §12). With no `httpApi.cors` (this stack has none: the functions answer CORS
 *    themselves, lib/http/middleware/cors.ts), the HTTP API passes a function's headers as they
 *    are. serverless-offline adds its own: it reflects any Origin with
 *    `Access-Control-Allow-Credentials: true`, so under `npm start` CORS_ORIGINS=none was not
 *    enforced. Here the answer carries only the CORS headers the product's own rule gives for the
 *    request's Origin under the stage's CORS_ORIGINS, as deployed.
 *
 * How: as the HTTP server receives a request, its raw headers get a marker with a number for the
 * request (and a note when it had no Content-Type); once serverless-offline has built the event,
 * the marker is taken off, the filled-in type removed, and the body set from the request's bytes.
 * Nothing else about serverless-offline changes, and nothing runs when deployed.
 */
const http = require("node:http");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const MARKER = "x-offline-parity-request";
/** What serverless-offline adds to every answer to a request with an Origin, and the product never sends. */
const OFFLINE_ONLY = ["access-control-allow-credentials", "access-control-expose-headers"];
/** The product's CORS headers: present only when its rule allows the Origin. */
const ALLOWED_ONLY = [
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-max-age",
];
const NO_TYPE = "x-offline-parity-no-content-type";

/** Content types the HTTP API hands to a function as text; every other body is base64. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|javascript|ecmascript)\b|application\/[\w.+-]+\+(json|xml)\b)/i;

class OfflineContentTypeParity {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { "before:offline:start:init": () => this.install(), "before:offline:start": () => this.install() };
  }

  async install() {
    if (OfflineContentTypeParity.installed) return;
    OfflineContentTypeParity.installed = true;
    const file = join(
      this.serverless.serviceDir,
      "node_modules/serverless-offline/src/events/http/lambda-events/LambdaProxyIntegrationEventV2.js",
    );
    const { default: EventV2 } = await import(pathToFileURL(file).href);
    /** The requests in flight, by their marker: serverless-offline keeps each one's bytes on it as `payload`. */
    const inFlight = new Map();
    let next = 0;
    const create = EventV2.prototype.create;
    EventV2.prototype.create = function createAsTheHttpApiWould(...args) {
      const event = create.apply(this, args);
      const headers = event.headers ?? {};
      const request = inFlight.get(headers[MARKER]);
      inFlight.delete(headers[MARKER]);
      delete headers[MARKER];
      if (headers[NO_TYPE] !== undefined) {
        delete headers[NO_TYPE];
        delete headers["content-type"];
      }
      const bytes = request?.payload;
      if (Buffer.isBuffer(bytes) && bytes.length > 0 && !TEXT_TYPE.test(headers["content-type"] ?? "")) {
        event.body = bytes.toString("base64");
        event.isBase64Encoded = true;
        headers["content-length"] = String(bytes.length);
      }
      return event;
    };
    const tsxRequire = require("./tsxRequire");
    const { readSettings } = tsxRequire("../lib/config/settings.ts", __filename);
    const { corsHeaders } = tsxRequire("../lib/http/middleware/cors.ts", __filename);
    const origins = readSettings({ CORS_ORIGINS: this.serverless.service.provider.environment?.CORS_ORIGINS }).corsOrigins;
    /** The answer's CORS headers made what the product's rule says for this Origin (set just before they are written). */
    const corsAsDeployed = (request, response) => {
      const origin = request.headers.origin;
      if (origin === undefined) return;
      for (const name of OFFLINE_ONLY) response.removeHeader(name);
      const allowed = corsHeaders({ headers: { origin } }, origins)["access-control-allow-origin"];
      if (allowed === undefined) for (const name of ALLOWED_ONLY) response.removeHeader(name);
      else response.setHeader("access-control-allow-origin", allowed);
    };
    const emit = http.Server.prototype.emit;
    http.Server.prototype.emit = function emitMarked(type, request, response, ...rest) {
      // `checkContinue`: a request sent with `Expect: 100-continue` (curl -T of a large file).
      if (type === "request" || type === "checkContinue") {
        next += 1;
        const id = String(next);
        inFlight.set(id, request);
        // Forgotten once answered (a request whose event was never built, a 404 of the router's, say).
        response?.once("close", () => inFlight.delete(id));
        request.rawHeaders.push(MARKER, id);
        if (request.headers["content-type"] === undefined) request.rawHeaders.push(NO_TYPE, "1");
        if (response) {
          const writeHead = response.writeHead;
          response.writeHead = function writeHeadAsDeployed(...args) {
            corsAsDeployed(request, this);
            return writeHead.apply(this, args);
          };
        }
      }
      return emit.call(this, type, request, response, ...rest);
    };
  }
}

module.exports = OfflineContentTypeParity;
