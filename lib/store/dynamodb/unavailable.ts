import { UnavailableError } from "../../errors";

/** DynamoDB's answers that mean "not now": throttling and its own failures. */
const THROTTLED = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "TooManyRequestsException",
]);
const SERVICE_FAILURE = new Set(["InternalServerError", "ServiceUnavailable", "ServiceUnavailableException"]);
/** Network failures on the way to the store (Node's error codes), and the SDK's time-outs. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * The UnavailableError for a DynamoDB failure a client should retry (answered 503 with
 * Retry-After), or undefined for any other error, which stays what it is.
 */
export function unavailableFor(error: unknown): UnavailableError | undefined {
  const failure = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string };
    $metadata?: { httpStatusCode?: number };
  };
  const cause = `${failure?.name ?? "Error"}: ${failure?.message ?? ""}`.trim();
  if (THROTTLED.has(failure?.name ?? "")) return new UnavailableError("The data store is throttling requests; try again shortly", 2, cause);
  const status = failure?.$metadata?.httpStatusCode ?? 0;
  const timedOut = failure?.name === "TimeoutError" || failure?.name === "RequestTimeout" || failure?.name === "AbortError";
  // The SDK may wrap a network error ("AWS SDK error wrapper for Error: connect ECONNREFUSED …").
  const code = failure?.code ?? failure?.cause?.code ?? /\b(E[A-Z]+)\b/.exec(failure?.message ?? "")?.[1] ?? "";
  if (SERVICE_FAILURE.has(failure?.name ?? "") || status >= 500 || timedOut || UNREACHABLE.has(code)) {
    return new UnavailableError("The data store cannot be reached; try again shortly", 5, cause);
  }
  return undefined;
}

/** The part of an SDK v3 client this needs: its middleware stack. */
interface WithMiddleware {
  middlewareStack: { add: (middleware: never, options: { step: "initialize"; name: string }) => void };
}

/**
 * Adds an outermost middleware (it sees an error once the SDK's retries are spent) that turns a
 * command's error into what `rethrow` throws instead (or the same error).
 */
function onError(client: WithMiddleware, name: string, rethrow: (error: unknown, args: unknown) => Promise<never>): void {
  const middleware =
    (next: (args: unknown) => Promise<unknown>) =>
    async (args: unknown): Promise<unknown> => {
      try {
        return await next(args);
      } catch (error) {
        return rethrow(error, args);
      }
    };
  client.middlewareStack.add(middleware as never, { step: "initialize", name });
}

/** Makes a client (DynamoDB, S3) throw UnavailableError for a failure worth retrying. */
export function answerUnavailableAs503(client: WithMiddleware): void {
  onError(client, "unavailableAs503", async (error) => {
    throw unavailableFor(error) ?? error;
  });
}

/** The table a command names (a transaction's first item's), if any. */
function tableOf(args: unknown): string | undefined {
  const input = (args as { input?: { TableName?: unknown; TransactItems?: Record<string, { TableName?: unknown }>[] } })?.input;
  const named = input?.TableName ?? Object.values(input?.TransactItems?.[0] ?? {})[0]?.TableName;
  return typeof named === "string" ? named : undefined;
}

/**
 * Makes a DynamoDB client answer a missing table (ResourceNotFoundException: a local engine
 * restarted in memory, a stack half made) as the outage it is, 503 with Retry-After: no request
 * can be answered until the table is there. `remake`, where given (a local engine only), makes it
 * again first, so the client's retry finds it.
 */
export function answerMissingTableAs503(client: WithMiddleware, remake?: (table: string) => Promise<void>): void {
  onError(client, "missingTableAs503", async (error, args) => {
    if ((error as Error)?.name !== "ResourceNotFoundException") throw error;
    const table = tableOf(args);
    if (remake && table) await remake(table).catch(() => undefined);
    throw new UnavailableError(
      "The data store's table is missing; try again shortly",
      5,
      `${(error as Error).name}: ${(error as Error).message}`,
    );
  });
}
