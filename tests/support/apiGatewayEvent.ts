import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { reloadSettings } from "../../lib/config/settings";
import type { HttpEvent, HttpResult } from "../../lib/http/event";

export interface EventInput {
  method: string;
  /** Path as the client sent it, with an optional query string. */
  path: string;
  /** The route template API Gateway matched, e.g. "/todo/api/v1.0/tasks/{id}"; "$default" for the catch-all. */
  route?: string;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  pathParameters?: Record<string, string>;
  stage?: string;
  domainName?: string;
  sourceIp?: string;
}

/**
 * An API Gateway HTTP API payload-2.0 event as Lambda receives it: lower-case header names, a
 * comma-joined `cookies`-less header map, `rawPath`/`rawQueryString`, `queryStringParameters` with
 * repeated keys joined by commas, and the full `requestContext`.
 */
export function apiGatewayEvent(input: EventInput): APIGatewayProxyEventV2 {
  const [rawPath, rawQueryString = ""] = input.path.split("?", 2);
  const headers: Record<string, string> = {
    accept: "*/*",
    host: input.domainName ?? "abc123.execute-api.us-east-1.amazonaws.com",
    "user-agent": "curl/8.5.0",
    "x-forwarded-for": input.sourceIp ?? "203.0.113.7",
    "x-forwarded-port": "443",
    "x-forwarded-proto": "https",
  };
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  // API Gateway takes the Cookie header out of the map and gives its cookies as a list.
  const cookies = headers.cookie?.split(/;\s*/);
  delete headers.cookie;
  if (input.body !== undefined && headers["content-length"] === undefined) {
    headers["content-length"] = String(Buffer.byteLength(input.body));
  }
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) query[key] = key in query ? `${query[key]},${value}` : value;
  const routeKey = input.route === "$default" ? "$default" : `${input.method} ${input.route ?? rawPath}`;
  const now = new Date();
  return {
    version: "2.0",
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    ...(cookies && { cookies }),
    ...(rawQueryString && { queryStringParameters: query }),
    ...(input.pathParameters && { pathParameters: input.pathParameters }),
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      domainName: input.domainName ?? "abc123.execute-api.us-east-1.amazonaws.com",
      domainPrefix: "abc123",
      http: {
        method: input.method,
        path: rawPath,
        protocol: "HTTP/1.1",
        sourceIp: input.sourceIp ?? "203.0.113.7",
        userAgent: "curl/8.5.0",
      },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey,
      stage: input.stage ?? "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(input.body !== undefined && { body: input.body }),
    isBase64Encoded: input.isBase64Encoded ?? false,
  };
}

export function lambdaContext(name = "test-function"): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${name}`,
    memoryLimitInMB: "1024",
    awsRequestId: `aws-${Math.random().toString(36).slice(2)}`,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: "2026/11/22/[$LATEST]0123456789abcdef",
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
  raw: string;
  /** The bytes of the body as the client gets them (API Gateway decodes a base64 one). */
  bytes: Buffer;
  /** The cookies set (API Gateway's Set-Cookie headers, one each). */
  cookies?: string[];
}

type Invocable = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** Invokes an exported handler as Lambda would and decodes its JSON answer. */
export async function invoke(handler: Invocable, input: EventInput): Promise<Answer> {
  // Tests change process.env between invocations; a real container's environment never changes.
  reloadSettings();
  const result = await handler(apiGatewayEvent(input) as HttpEvent, lambdaContext());
  const raw = typeof result.body === "string" ? result.body : "";
  let body: unknown = raw;
  if ((result.headers?.["content-type"] ?? "").startsWith("application/json") && raw !== "") body = JSON.parse(raw);
  const bytes = Buffer.from(raw, result.isBase64Encoded ? "base64" : "utf8");
  return { status: result.statusCode, headers: result.headers ?? {}, body, raw, bytes, ...(result.cookies && { cookies: result.cookies }) };
}

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/**
 * An event of API Gateway's WebSocket API as a route's function gets it (AWS's documented shapes:
 * `$connect` with the connection request's headers, a message with its body, `$disconnect` with
 * the close's status).
 */
export function webSocketEvent(
  route: string,
  connectionId: string,
  input: { headers?: Record<string, string>; body?: string } = {},
): {
  requestContext: Record<string, unknown> & { connectionId: string; routeKey: string };
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded: boolean;
} {
  const eventType = route === "$connect" ? "CONNECT" : route === "$disconnect" ? "DISCONNECT" : "MESSAGE";
  const now = Date.now();
  return {
    ...(eventType !== "MESSAGE" && {
      headers: {
        Host: "abcdef1234.execute-api.us-east-1.amazonaws.com",
        "X-Forwarded-For": "192.0.2.10",
        "X-Forwarded-Port": "443",
        "X-Forwarded-Proto": "https",
        ...(eventType === "CONNECT" && { "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13" }),
        ...input.headers,
      },
    }),
    requestContext: {
      routeKey: route,
      eventType,
      extendedRequestId: "Zq3kWEXAMPLE=",
      requestTime: new Date(now).toUTCString(),
      messageDirection: "IN",
      stage: "prod",
      connectedAt: now - 1000,
      requestTimeEpoch: now,
      identity: { sourceIp: "192.0.2.10", userAgent: "relay" },
      requestId: "Zq3kWFEXAMPLE=",
      domainName: "abcdef1234.execute-api.us-east-1.amazonaws.com",
      connectionId,
      apiId: "abcdef1234",
      ...(eventType === "MESSAGE" && { messageId: "Zq3kXEXAMPLE=" }),
      ...(eventType === "DISCONNECT" && { disconnectStatusCode: 1000, disconnectReason: "" }),
    },
    ...(input.body !== undefined && { body: input.body }),
    isBase64Encoded: false,
  };
}
