/**
 * Serverless plugin, for `serverless offline` only: a request with a body but no Content-Type
 * reaches the handler without one, as it does behind API Gateway. serverless-offline 14 fills in
 * `application/json` there (LambdaProxyIntegrationEventV2), so locally such a POST was accepted
 * where the deployed API answers 400.
 *
 * How: as the HTTP server receives a request without a Content-Type, a marker goes on its raw
 * headers; once serverless-offline has built the event, the marker and the filled-in type are
 * taken off again. Nothing else about serverless-offline changes, and nothing runs when deployed.
 */
const http = require("node:http");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const MARKER = "x-offline-parity-no-content-type";

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
    const create = EventV2.prototype.create;
    EventV2.prototype.create = function createWithoutFilledInType(...args) {
      const event = create.apply(this, args);
      if (event.headers?.[MARKER] !== undefined) {
        delete event.headers[MARKER];
        delete event.headers["content-type"];
      }
      return event;
    };
    const emit = http.Server.prototype.emit;
    http.Server.prototype.emit = function emitMarked(type, request, ...rest) {
      if (type === "request" && request.headers["content-type"] === undefined) request.rawHeaders.push(MARKER, "1");
      return emit.call(this, type, request, ...rest);
    };
  }
}

module.exports = OfflineContentTypeParity;
