/**
 * Serverless plugin, for `serverless offline` only: the request reaches the handler as it does
 * behind API Gateway's HTTP API, in two respects where serverless-offline 14 differs.
 *
 * 1. A request with a body but no Content-Type arrives without one. serverless-offline fills in
 *    `application/json` (LambdaProxyIntegrationEventV2), so locally such a POST was accepted where
 *    the deployed API answers 400.
 * 2. A body that is not text arrives as its bytes, base64-encoded (`isBase64Encoded`), whatever
 *    its content type says, or when it has none. serverless-offline decodes most bodies as UTF-8,
 *    so `curl -T installer.iso` (no Content-Type, or a form type) stored a corrupted file locally.
 *    The HTTP API passes text types (text/*, JSON, XML, JavaScript) as text and the rest as bytes.
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
      }
      return emit.call(this, type, request, response, ...rest);
    };
  }
}

module.exports = OfflineContentTypeParity;
