import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";

/** An API Gateway HTTP API (payload 2.0) event whose body the JSON middleware may have parsed. */
export type HttpEvent = Omit<APIGatewayProxyEventV2, "body"> & { body?: unknown };
export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };
export type HttpHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** Header lookup that works for API Gateway (lower-case names; a WebSocket API's `$connect` as sent) and for hand-made events. */
export function header(event: { headers?: Record<string, string | undefined> }, name: string): string | undefined {
  const headers = event.headers ?? {};
  const lower = name.toLowerCase();
  if (headers[lower] !== undefined) return headers[lower];
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) return headers[key];
  return undefined;
}
