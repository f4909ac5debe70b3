import { createHash } from "node:crypto";
import { readSettings, type Settings } from "../../config/settings";
import { closesConnections, type DataAccess, pushes, touchesData, withWriteEffects } from "../../dataAccess";
import { accessOf } from "./access";
import { type CatchAll, type Endpoint, methodsOf, requiresAuth } from "./endpoint";
import { CATCH_ALL, ROUTES } from "./index";
import { SCHEDULED, type ScheduledFunction } from "./scheduled";
import { SOCKET, type SocketFunction } from "./socket";
import { TRIGGER_NEEDS, TRIGGERED, type TriggeredFunction } from "./triggered";

/** The table's stream, new event items only (not the sequence heads): what publishEvents reads. */
const EVENT_STREAM = {
  stream: {
    type: "dynamodb",
    arn: { "Fn::GetAtt": ["DataTable", "StreamArn"] },
    startingPosition: "TRIM_HORIZON",
    batchSize: 100,
    maximumRetryAttempts: 10,
    bisectBatchOnFunctionError: true,
    destinations: { onFailure: { type: "sqs", arn: { "Fn::GetAtt": ["EventDeadLetters", "Arn"] } } },
    filterPatterns: [
      { eventName: ["INSERT"], dynamodb: { Keys: { pk: { S: [{ prefix: "EVENT#" }] }, sk: { S: [{ "anything-but": ["head"] }] } } } },
      // The audit trail's records, sent as events (issue 55).
      { eventName: ["INSERT"], dynamodb: { Keys: { pk: { S: [{ prefix: "AUDIT#" }] } } } },
    ],
  },
} as const;

/**
 * The WebSocket API's URL, for the functions that make relay jobs (they tell it to relays and post
 * to its `@connections`): the framework's WebsocketsApi, at its stage (named as the service's
 * stage). The name, not a reference to the stage resource: the stage's deployment waits for the
 * routes, which wait for the functions. serverless offline cannot resolve it: the local stage's
 * value is serverless.yml's (lib/deploy/localBundle.ts).
 */
export const relayPushUrl = (stage: string) => ({
  "Fn::Sub": `wss://\${WebsocketsApi}.execute-api.\${AWS::Region}.\${AWS::URLSuffix}/${stage}`,
});

/** The delivery queue, ten messages a batch, each failed one alone coming back. */
const DELIVERY_QUEUE = {
  sqs: { arn: { "Fn::GetAtt": ["DeliveryQueue", "Arn"] }, batchSize: 10, functionResponseType: "ReportBatchItemFailures" },
} as const;

type HttpApiEvent =
  | { httpApi: { method: string; path: string; authorizer?: { name: typeof GATEWAY_AUTHORIZER } } | "*" }
  | { websocket: { route: string; routeResponseSelectionExpression?: "$default" } }
  | { schedule: string }
  | typeof EVENT_STREAM
  | typeof DELIVERY_QUEUE;
export type Store = "memory" | "dynamodb";

/** The HTTP API's JWT authorizer (OIDC_AUTHORIZER=gateway), declared by deploy/functions.js httpApiAuthorizers. */
export const GATEWAY_AUTHORIZER = "oidc";

/**
 * OIDC_AUTHORIZER=gateway: the HTTP API's JWT authorizer checks the identity provider's token on
 * every route that asks for credentials before any function runs (the function checks it again:
 * it holds the grants); undefined otherwise. An HTTP API route has one authorizer, so with it
 * nothing else gets in (the settings refuse a Basic user list beside it).
 */
export function gatewayAuthorizer(
  config: Pick<Settings, "oidc" | "tasksAuth" | "provisioningAuth">,
): ((route: Endpoint) => boolean) | undefined {
  if (config.oidc?.authorizer !== "gateway") return undefined;
  return (route) => requiresAuth(route.auth, config);
}

/**
 * The routes the stage's JWT authorizer guards: those asking for credentials as the stage's
 * functions will be configured, a deployed stage's defaults (deploy/deployGuard.js, serverless.yml
 * params.default: PROVISIONING_AUTH=on) under what the deploying shell says.
 */
export function stageAuthorizer(env: Record<string, string | undefined>, stage: string, deployedDefaults: Record<string, string>) {
  return gatewayAuthorizer(readSettings(stage === "local" ? env : { ...deployedDefaults, ...env }));
}

/** The `provider.httpApi.authorizers` of serverless.yml: the provider's JWT authorizer when OIDC_AUTHORIZER=gateway, else none. */
export function httpApiAuthorizers(config: Pick<Settings, "oidc">): Record<string, unknown> {
  const oidc = config.oidc;
  if (oidc?.authorizer !== "gateway") return {};
  return {
    [GATEWAY_AUTHORIZER]: {
      type: "jwt",
      identitySource: "$request.header.Authorization",
      issuerUrl: oidc.issuer,
      audience: [...oidc.audiences],
    },
  };
}

export interface ServerlessFunction {
  handler: string;
  /** Its role's ARN (a `Fn::Sub`, which the framework leaves as it is: a role's name would get a `DependsOn` beside the reference, which cfn-lint flags). */
  role: { "Fn::Sub": string };
  events: HttpApiEvent[];
  /** Every function logs to the stage's one log group (provider.logs.lambda), made before them. */
  disableLogs: true;
  dependsOn: ["FunctionsLogGroup"];
  /** A scheduled function's failed runs, after Lambda's two retries (deploy/resources.observability.yml). */
  onError?: { "Fn::GetAtt": ["PollerDeadLetters", "Arn"] };
  /** A triggered function's own: the bus and queue it names, and its time-out. */
  environment?: Record<string, unknown>;
  timeout?: number;
  /** The WebSocket API's functions: how many may run at once (SOCKET_CONCURRENCY). */
  reservedConcurrency?: number;
}

/** What a function's role must allow: its data access, and the user list if it may ask for Basic credentials. */
export interface Needs {
  access: DataAccess;
  basicAuth: boolean;
  /** Sends its failed runs to the dead-letter queue (the scheduled functions). */
  deadLetters?: true;
  /** Reads the table's stream (and sends the batches it gives up on to their dead-letter queue). */
  eventStream?: true;
  /** Puts events on the event bus. */
  eventBus?: true;
  /** Sends to the delivery queue, or consumes it (and sends again: a retry is a new message). */
  deliveryQueue?: "send" | "consume";
  /** Posts to the relays' push connections (it makes relay jobs: lib/dataAccess.ts `pushes`). */
  push?: true;
  /** Closes the relays' push connections (it revokes relay credentials: lib/dataAccess.ts `closesConnections`). */
  closes?: true;
}

const ASKS_FOR_CREDENTIALS: ReadonlySet<string> = new Set(["tasksList", "tasks", "northbound"]);

/** Every function of the service (one per registry entry, the catch-all, the scheduled ones) with what it needs. */
interface FunctionNeeds {
  name: string;
  handler: string;
  events: HttpApiEvent[];
  needs: Needs;
  timeout?: number;
  reservedConcurrency?: number;
}

/** The triggered functions a store's stack has: DynamoDB's stream and queue (memory has neither). */
export const triggeredFor = (store: Store): readonly TriggeredFunction[] => (store === "dynamodb" ? TRIGGERED : []);

/**
 * The WebSocket API's functions a stage has: a deployed stack's with STORE=dynamodb (a memory
 * stage's containers share no connections, so its relays poll); the local stage's always
 * (serverless offline's one process shares them).
 */
export const socketFor = (store: Store, local = false): readonly SocketFunction[] => (store === "dynamodb" || local ? SOCKET : []);

/**
 * How many of each WebSocket function may run at once: a flood of connections (API Gateway's
 * throttle lets a burst through) takes at most these from the account's concurrency, never the
 * HTTP routes' share; a relay connects once and pings a minute, so a site's relays need few.
 */
export const SOCKET_CONCURRENCY = 10;

/** The needs implied by a function's data access: posting to the relays' connections when it makes relay jobs. */
const pushNeeds = (access: DataAccess): Pick<Needs, "push"> => (pushes(access) ? { push: true } : {});

export function allFunctions(
  routes: readonly Endpoint[],
  catchAll: CatchAll,
  scheduled: readonly ScheduledFunction[],
  triggered: readonly TriggeredFunction[] = [],
  socket: readonly SocketFunction[] = [],
  authorized?: (route: Endpoint) => boolean,
): FunctionNeeds[] {
  return [
    ...routes.map((route) => {
      const access = accessOf(route);
      return {
        name: route.function,
        handler: route.handler,
        events: methodsOf(route).map(
          (method): HttpApiEvent => ({
            httpApi: { method, path: route.path, ...(authorized?.(route) && { authorizer: { name: GATEWAY_AUTHORIZER } }) },
          }),
        ),
        needs: {
          access,
          basicAuth: ASKS_FOR_CREDENTIALS.has(route.auth),
          ...pushNeeds(access),
          // Declared, not implied: a job's maker forgets a gone connection (a write effect), and the
          // WebSocket API's own functions write them too; none of those closes one.
          ...(closesConnections(route.data) && { closes: true as const }),
        },
      };
    }),
    {
      name: catchAll.function,
      handler: catchAll.handler,
      events: [{ httpApi: "*" }],
      needs: { access: catchAll.data, basicAuth: false },
    },
    ...scheduled.map((entry) => ({
      name: entry.function,
      handler: entry.handler,
      events: [{ schedule: entry.rate }],
      needs: { access: withWriteEffects(entry.data), basicAuth: false, deadLetters: true as const, ...pushNeeds(entry.data) },
    })),
    ...triggered.map((entry) => ({
      name: entry.function,
      handler: entry.handler,
      events: [entry.trigger === "eventStream" ? EVENT_STREAM : DELIVERY_QUEUE],
      needs: { access: withWriteEffects(entry.data), basicAuth: false, ...TRIGGER_NEEDS[entry.trigger], ...pushNeeds(entry.data) },
      timeout: entry.timeout,
    })),
    ...socket.map((entry) => ({
      name: entry.function,
      handler: entry.handler,
      events: [{ websocket: { route: entry.route, ...(entry.answers && { routeResponseSelectionExpression: "$default" as const }) } }],
      needs: { access: withWriteEffects(entry.data), basicAuth: false },
      reservedConcurrency: SOCKET_CONCURRENCY,
    })),
  ];
}

/** In words, for the role's description: "reads nodes; writes workflows; file bytes: read; the user list". */
export const describe = ({ access, basicAuth, deadLetters, eventStream, eventBus, deliveryQueue, push, closes }: Needs): string =>
  [
    access.read && `reads ${access.read.join(", ")}`,
    access.write && `writes ${access.write.join(", ")}`,
    access.fileBytes && `file bytes: ${access.fileBytes}`,
    basicAuth && "the user list",
    deadLetters && "the dead-letter queue",
    eventStream && "the table's stream",
    eventBus && "the event bus",
    deliveryQueue && `the delivery queue: ${deliveryQueue}`,
    push && "the relays' connections",
    closes && "closing the relays' connections",
  ]
    .filter(Boolean)
    .join("; ") || "logs only";

/**
 * The role of a function: with STORE=dynamodb, one role per distinct set of needs (functions that
 * need the same share it, which keeps the stack under CloudFormation's 500 resources); with
 * STORE=memory, whose functions touch no AWS data, one role per access class (issue 35 §12): the
 * functions that ask for credentials read the user list, the scheduled ones reach the dead
 * letters, and every other (the booting machines' routes among them) writes logs only.
 */
export function roleOf(store: Store, needs: Needs): string {
  if (store === "memory") return needs.basicAuth ? "UserListRole" : needs.deadLetters ? "DeadLettersRole" : "ApiFunctionRole";
  if (!touchesData(needs.access) && !needs.basicAuth && !needs.deadLetters && !needs.deliveryQueue) return "NoDataRole";
  return `DataRole${createHash("sha256").update(describe(needs)).digest("hex").slice(0, 10)}`;
}

/**
 * The `functions:` block of serverless.yml, derived from the route registry: one function per
 * endpoint (its own bundle, its own least-privilege role), plus the `$default` catch-all and the
 * scheduled functions. They share one log group: a group per function would cost 119 of the
 * stack's 500 resources, which the roles need (each log line names its function).
 */
export function serverlessFunctions(
  store: Store,
  routes: readonly Endpoint[] = ROUTES,
  catchAll: CatchAll = CATCH_ALL,
  scheduled: readonly ScheduledFunction[] = SCHEDULED,
  triggered: readonly TriggeredFunction[] = triggeredFor(store),
  socket: readonly SocketFunction[] = socketFor(store),
  /** The stage deployed (the framework's default, dev, unless the command names one). */
  stage = "dev",
  /** The routes the HTTP API's JWT authorizer guards (gatewayAuthorizer), if any. */
  authorized?: (route: Endpoint) => boolean,
): Record<string, ServerlessFunction> {
  return Object.fromEntries(
    allFunctions(routes, catchAll, scheduled, triggered, socket, authorized).map((fn) => [
      fn.name,
      {
        handler: `${fn.handler}.handler`,
        role: { "Fn::Sub": `\${${roleOf(store, fn.needs)}.Arn}` },
        events: fn.events,
        disableLogs: true,
        dependsOn: ["FunctionsLogGroup"],
        ...(fn.needs.deadLetters && { onError: { "Fn::GetAtt": ["PollerDeadLetters", "Arn"] } }),
        ...(fn.timeout !== undefined && { timeout: fn.timeout }),
        ...(fn.reservedConcurrency !== undefined && { reservedConcurrency: fn.reservedConcurrency }),
        ...((fn.needs.deliveryQueue || ((fn.needs.push || fn.needs.closes) && store === "dynamodb")) && {
          environment: {
            ...(fn.needs.deliveryQueue && { DELIVERY_QUEUE_URL: { Ref: "DeliveryQueue" } }),
            ...(fn.needs.eventBus && { EVENT_BUS: { Ref: "EventBus" } }),
            ...((fn.needs.push || fn.needs.closes) && store === "dynamodb" && { RELAY_PUSH_URL: relayPushUrl(stage) }),
          },
        }),
      },
    ]),
  );
}
