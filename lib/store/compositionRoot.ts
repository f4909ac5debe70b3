import type { DynamoDBRecord } from "aws-lambda";
import { type AuditTrail, useAuditTrail } from "../audit/auditTrail";
import { type ApiTokenStore, useApiTokenStore } from "../auth/apiTokens";
import { type AttemptCounter, MemoryAttemptCounter, useAttemptCounter } from "../auth/attemptLimiter";
import { type Settings, settings } from "../config/settings";
import type { StoreName } from "../dataAccess";
import { ConfigError, isDomainError, UnavailableError } from "../errors";
import { type IdempotencyStore, lockSeconds } from "../idempotency/idempotencyStore";
import { currentInvocation } from "../invocation";
import { logLine } from "../logger";
import { demoNodes } from "../provisioning/demoNodes";
import type { ServiceEvent } from "../provisioning/events/event";
import type { DeliveryDeps, DeliveryMessage, DeliveryQueue } from "../provisioning/hooks/deliveryService";
import type { NodeStore } from "../provisioning/nodes/nodeStore";
import type { ProvisioningStores } from "../provisioning/ports";
import { closeRelayConnections, pushingJobs, tellRelays } from "../provisioning/relays/push";
import type { RelayIdentity } from "../provisioning/relays/site";
import { scopedNodes, scopedStores } from "../provisioning/relays/siteScope";
import { authenticateRelay } from "../provisioning/relays/siteService";
import { SERVICE_TASK_KINDS } from "../provisioning/serviceTasks";
import { giveTaskKinds } from "../provisioning/workflows/taskKinds";
import type { TaskStore } from "../tasks/taskStore";
import { guarded } from "./accessGuard";
import { startLocalDelivery } from "./localDelivery";
import { MemoryApiTokenStore } from "./memory/apiTokenStore";
import { MemoryAuditTrail } from "./memory/auditTrail";
import { MemoryIdempotencyStore } from "./memory/idempotencyStore";
import { memoryProvisioningStores } from "./memory/provisioningStores";
import { MemoryTaskStore } from "./memory/taskStore";
import { observedNodes, observedWorkflows } from "./observedStores";
import { processSingleton, resetProcessSingleton } from "./processSingleton";
import { deliveryDepsOf } from "./webhookPoster";

/**
 * The composition root: the one module that knows both the domain's ports and the adapters, and
 * picks the adapters from the STORE setting. Handlers get their stores here.
 *
 * `process.env.BUNDLED_STORE` is replaced at bundle time by the store a deployment uses
 * (serverless.yml custom.esbuild.define, from STORE), so that its bundles hold that store's
 * adapters only; the tests and tsx leave it unset and have both. It is written out in each
 * condition (not kept in a variable) so that the bundler can fold the condition and drop the
 * other store's code.
 */

/** STORE, which must be the store the bundle holds. */
function storeOf(config: Settings): Settings["store"] {
  const bundled = process.env.BUNDLED_STORE;
  if (bundled && bundled !== config.store) {
    throw new ConfigError(`STORE is ${config.store} but this bundle holds the ${bundled} store only: deploy with STORE=${config.store}`);
  }
  return config.store;
}

/** Never reached (storeOf refused the mismatch); it lets the bundler drop the store the bundle does not hold. */
const notBundled = (store: string): never => {
  throw new ConfigError(`This bundle holds no ${store} store`);
};

/** The task store this container uses, chosen by the STORE setting. */
export function taskStore(): TaskStore {
  const config = settings();
  const store = storeOf(config);
  if (process.env.BUNDLED_STORE !== "memory" && store === "dynamodb") {
    return processSingleton(`taskStore.dynamodb.${config.dynamodbTable}`, () => {
      // Loaded only in this mode, so memory-mode containers never load the AWS SDK.
      const { DynamoTaskStore } = require("./dynamodb/taskStore") as typeof import("./dynamodb/taskStore");
      const { documentClient } = require("./dynamodb/client") as typeof import("./dynamodb/client");
      return guarded("tasks", new DynamoTaskStore(documentClient(config), config.dynamodbTable));
    });
  }
  // A conditional expression, not `if (…) return`: esbuild drops the branch a folded condition
  // never takes, but not the statements after a folded `return`.
  return process.env.BUNDLED_STORE === "dynamodb"
    ? notBundled(store)
    : processSingleton("taskStore.memory", () =>
        guarded("tasks", new MemoryTaskStore({ capacity: config.memoryStoreCapacity, maxBytes: config.memoryStoreMaxBytes })),
      );
}

async function seedDemoNodes(nodes: NodeStore): Promise<void> {
  for (const node of demoNodes()) {
    try {
      await nodes.create(node);
    } catch (error) {
      // Already there (another container, or a client took the MAC): leave it as it is. Any other
      // failure (a function whose role may only read, say) costs the demo node, not the request.
      if (!isDomainError(error)) logLine({ level: "warn", msg: "could not create a demo node", error: (error as Error).message });
    }
  }
}

function memoryStores(config: Settings): ProvisioningStores {
  // serverless offline sets IS_OFFLINE: only there can a loopback URL stand in for a presigned one.
  const offline = process.env.IS_OFFLINE === "true";
  return memoryProvisioningStores({ capacity: config.memoryStoreCapacity, maxBytes: config.memoryStoreMaxBytes }, offline);
}

function dynamoStores(config: Settings): ProvisioningStores {
  // Loaded only in this mode, so memory-mode containers never load the AWS SDK.
  const { documentClient } = require("./dynamodb/client") as typeof import("./dynamodb/client");
  const { dynamoProvisioningStores } = require("./dynamodb/provisioningStores") as typeof import("./dynamodb/provisioningStores");
  // The S3 client is made (and the SDK's S3 module loaded) by the file routes only.
  const fileBlobs = () =>
    processSingleton(`fileBlobs.s3.${config.filesBucket}`, () => {
      const { s3Client } = require("./s3/client") as typeof import("./s3/client");
      const { S3FileBlobs } = require("./s3/fileBlobs") as typeof import("./s3/fileBlobs");
      return new S3FileBlobs(s3Client(config), config.filesBucket);
    });
  return dynamoProvisioningStores(documentClient(config), config.dynamodbTable, fileBlobs);
}

/**
 * Every port checked against the running function's declared data access (lib/store/accessGuard.ts),
 * and the nodes and workflows observed (lib/store/observedStores.ts).
 */
function guardedStores(raw: ProvisioningStores): ProvisioningStores {
  const observed: Partial<ProvisioningStores> = {
    nodes: callersNodes(observedNodes(raw.nodes)),
    workflows: observedWorkflows(raw.workflows),
  };
  // Not `{ ...raw }`: that would call the fileBlobs getter, and make the S3 client, in every function.
  const names = Object.keys(raw).filter((name) => name !== "fileBlobs" && name !== "logBlobs") as (keyof ProvisioningStores & StoreName)[];
  const out = Object.fromEntries(names.map((name) => [name, guarded(name, observed[name] ?? raw[name])])) as unknown as ProvisioningStores;
  // The bytes stay made on first use (the S3 client only in the functions that touch them).
  Object.defineProperty(out, "logBlobs", { get: () => guarded("logBytes", raw.logBlobs), enumerable: true });
  return Object.defineProperty(out, "fileBlobs", { get: () => guarded("fileBytes", raw.fileBlobs), enumerable: true });
}

/**
 * The node store as the running request's caller may use it (issue 55): narrowed to the machines
 * its grants reach when they are on named sites (the auth middleware sets them on the invocation),
 * whole for a grant on every site, a machine's own boot routes and every background function.
 */
function callersNodes(inner: NodeStore): NodeStore {
  const narrowed = (): NodeStore => {
    const sites = currentInvocation()?.nodeSites;
    return sites ? scopedNodes(inner, sites) : inner;
  };
  return Object.fromEntries(
    Object.keys(NODE_METHODS).map((method) => [
      method,
      (...args: unknown[]) => (narrowed()[method as keyof NodeStore] as (...a: unknown[]) => unknown)(...args),
    ]),
  ) as unknown as NodeStore;
}

/** Every method of the node store: a method added to the port and not here fails the type check. */
const NODE_METHODS: Record<keyof NodeStore, true> = {
  list: true,
  page: true,
  get: true,
  find: true,
  create: true,
  update: true,
  withSku: true,
  pageWithSku: true,
  withTag: true,
  delete: true,
};

/**
 * With RELAY_PUSH_URL set (issue 56), the relay jobs' store tells the job's site's connected relays
 * at each job made (lib/provisioning/relays/push.ts). The API Gateway client is loaded at the first
 * push, so a function that makes no job never loads it.
 */
function withPush(stores: ProvisioningStores, pushUrl: string | undefined): ProvisioningStores {
  if (!pushUrl) return stores;
  const tell = (site: string) => {
    const { relayPusher } = require("./apigateway/relayPusher") as typeof import("./apigateway/relayPusher");
    return tellRelays(stores, relayPusher(pushUrl), site, new Date(), (connection, error) =>
      logLine({ level: "warn", msg: "could not push to a relay", connection, error: error.message }),
    );
  };
  // Not `{ ...stores }`: that would call the bytes' getters (guardedStores), making the S3 client.
  stores.relayJobs = pushingJobs(stores.relayJobs, tell);
  return stores;
}

/**
 * Ends a revoked relay credential's push connections at API Gateway (RELAY_PUSH_URL's), now: without
 * it, an open connection heard its site's pushes until its next ping. Nothing where there is no push.
 */
export async function closeRelayPush(site: string, relay: string): Promise<number> {
  const pushUrl = settings().relayPushUrl;
  if (!pushUrl) return 0;
  const { relayPusher } = require("./apigateway/relayPusher") as typeof import("./apigateway/relayPusher");
  return closeRelayConnections(await provisioningStores(), relayPusher(pushUrl), site, relay, new Date(), (connection, error) =>
    logLine({ level: "warn", msg: "could not close a relay's connection", connection, error: error.message }),
  );
}

/** This container's provisioning stores, chosen by STORE, with the demo nodes when DEMO_NODES=on. */
export function provisioningStores(): Promise<ProvisioningStores> {
  // The workflow orchestration's service task kinds (effect, relay) are given where the stores are composed.
  giveTaskKinds(SERVICE_TASK_KINDS);
  const config = settings();
  const store = storeOf(config);
  const key = store === "dynamodb" ? `provisioningStores.dynamodb.${config.dynamodbTable}` : "provisioningStores.memory";
  return processSingleton(key, () => {
    const ready = (async () => {
      const stores =
        process.env.BUNDLED_STORE !== "memory" && store === "dynamodb"
          ? dynamoStores(config)
          : process.env.BUNDLED_STORE !== "dynamodb"
            ? memoryStores(config)
            : notBundled(store);
      if (config.demoNodes) await seedDemoNodes(stores.nodes);
      // serverless offline (npm start): events reach their hooks through this process (deployed: the
      // table's stream and SQS). BUNDLED_STAGE is a constant in the bundles: a deployed stage's
      // drop this branch and the local delivery with it (unbundled, as in the tests, it is `local`).
      if ((process.env.BUNDLED_STAGE ?? "local") === "local" && process.env.IS_OFFLINE === "true") startLocalDelivery(stores, config);
      return withPush(guardedStores(stores), config.relayPushUrl);
    })();
    // A failed start (the table unreachable, say) must not stick: the next request tries again.
    ready.catch(() => resetProcessSingleton(key));
    return ready;
  });
}

/** This container's idempotency keys, in the store STORE names (the same table as the data in DynamoDB). */
export function idempotencyStore(): IdempotencyStore {
  const config = settings();
  const store = storeOf(config);
  const lock = lockSeconds(config.functionTimeoutSeconds);
  if (process.env.BUNDLED_STORE !== "memory" && store === "dynamodb") {
    return processSingleton(`idempotencyStore.dynamodb.${config.dynamodbTable}`, () => {
      const { DynamoIdempotencyStore } = require("./dynamodb/idempotencyStore") as typeof import("./dynamodb/idempotencyStore");
      const { documentClient } = require("./dynamodb/client") as typeof import("./dynamodb/client");
      return guarded("idempotency", new DynamoIdempotencyStore(documentClient(config), config.dynamodbTable, lock));
    });
  }
  // A tenth of the memory budget at most: kept answers are a cache, not data.
  const limits = { capacity: config.memoryStoreCapacity, maxBytes: Math.floor(config.memoryStoreMaxBytes / 10) };
  return process.env.BUNDLED_STORE === "dynamodb"
    ? notBundled(store)
    : processSingleton("idempotencyStore.memory", () => guarded("idempotency", new MemoryIdempotencyStore(limits, lock * 1000)));
}

type DocumentClient = ReturnType<typeof import("./dynamodb/client").documentClient>;

/**
 * A store of the operators' sign-ins: in the table every container shares (STORE=dynamodb), else in
 * this process; made once per process, every call guarded as `name`. The DynamoDB adapter is
 * required only where it is the one used (`inTable` requires it).
 */
function signInStore<T extends object>(
  name: "authAttempts" | "apiTokens" | "audit",
  inTable: (client: DocumentClient, config: Settings) => T,
  inMemory: () => T,
): T {
  const config = settings();
  if (process.env.BUNDLED_STORE !== "memory" && storeOf(config) === "dynamodb") {
    return processSingleton(`${name}.dynamodb.${config.dynamodbTable}`, () => {
      const { documentClient } = require("./dynamodb/client") as typeof import("./dynamodb/client");
      return guarded(name, inTable(documentClient(config), config));
    });
  }
  return processSingleton(`${name}.memory`, () => guarded(name, inMemory()));
}

/** Where failed sign-ins are counted. */
export const attemptCounter = (): AttemptCounter =>
  signInStore<AttemptCounter>(
    "authAttempts",
    (client, config) => {
      const { DynamoAttemptCounter } = require("./dynamodb/attemptCounter") as typeof import("./dynamodb/attemptCounter");
      return new DynamoAttemptCounter(client, config.dynamodbTable);
    },
    () => new MemoryAttemptCounter(),
  );
// The Basic auth middleware (lib/http) counts through the port; this module, which every handler
// of a protected route loads, names the store's counter.
useAttemptCounter(attemptCounter);

/** The API tokens (issue 55). */
export const apiTokenStore = (): ApiTokenStore =>
  signInStore<ApiTokenStore>(
    "apiTokens",
    (client, config) => {
      const { DynamoApiTokenStore } = require("./dynamodb/apiTokenStore") as typeof import("./dynamodb/apiTokenStore");
      return new DynamoApiTokenStore(client, config.dynamodbTable);
    },
    () => new MemoryApiTokenStore(),
  );
useApiTokenStore(apiTokenStore);

/** The audit trail (issue 55): kept AUDIT_RETENTION_DAYS in the table; the memory store keeps its newest records. */
export const auditTrailStore = (): AuditTrail =>
  signInStore<AuditTrail>(
    "audit",
    (client, config) => {
      const { DynamoAuditTrail } = require("./dynamodb/auditTrail") as typeof import("./dynamodb/auditTrail");
      return new DynamoAuditTrail(client, config.dynamodbTable, config.auditRetentionDays);
    },
    () => new MemoryAuditTrail(),
  );
useAuditTrail(auditTrailStore);

/**
 * Names the token store and the audit trail for the auth middleware (lib/http): done when this
 * module loads, which every handler using a store does; a protected handler that uses none (a
 * library's, the versions) calls it, so that its bundle keeps this module (package.json's
 * `sideEffects: false` drops an import used for its effect alone).
 */
export function composeOperatorStores(): void {
  useApiTokenStore(apiTokenStore);
  useAuditTrail(auditTrailStore);
}

/**
 * The boot routes' gate (lib/http/bootGate.ts): a request a relay forwarded (Bearer credential)
 * names its relay and site; without one, the request passes unless BOOT_VIA_RELAY=on (401).
 */
export async function bootGate(authorization: string | undefined): Promise<RelayIdentity | undefined> {
  const forwarded = authorization?.startsWith("Bearer ") === true;
  if (!forwarded && !settings().bootViaRelay) return undefined;
  const relay = await authenticateRelay(await provisioningStores(), authorization, undefined, new Date());
  return { id: relay.id, site: relay.site };
}

/**
 * The stores as a boot request sees them (issue 35 §1): one a site's relay forwarded (`relayOf`)
 * sees that site's nodes only; one no relay forwarded sees every node. Every boot route's handler
 * takes its stores here, never from provisioningStores() (tests/unit/architecture checks it).
 */
export async function bootStores(relay: RelayIdentity | undefined): Promise<ProvisioningStores> {
  return scopedStores(await provisioningStores(), { site: relay?.site });
}

/** The key the hooks' secrets derive from; a deployment without one cannot make or sign hooks (503, saying why). */
export function hookSigningKey(): string {
  const key = settings().hookSigningKey;
  if (!key)
    throw new UnavailableError("Hooks cannot sign their deliveries: this deployment has no HOOK_SIGNING_KEY (docs/events.md)", 3600);
  return key;
}

/** What a delivery needs here: this container's stores, the key, the retry waits, and `queue` for its retry. */
const deliveryDepsWith = async (queue: DeliveryQueue): Promise<DeliveryDeps> =>
  deliveryDepsOf(await provisioningStores(), hookSigningKey(), settings().hookRetrySeconds, queue, settings().hookTargets);

/** What a hook's test delivery needs (it posts once and queues nothing). */
export const testDeliveryDeps = (): Promise<DeliveryDeps> => deliveryDepsWith({ send: async () => undefined });

/** The bus and the queue of a deployed stack (STORE=dynamodb; the triggered functions' environment names them), and how their records read. */
export function deployedDelivery(): {
  queue: DeliveryQueue;
  putOnBus: (events: readonly ServiceEvent[]) => Promise<void>;
  /** The new events in a batch of the table's stream. */
  eventsOfStream: (records: readonly DynamoDBRecord[]) => ServiceEvent[];
  /** A queued delivery's message, and the seconds before it is due (0: now). */
  queuedDelivery: (body: string, now: Date) => { message: DeliveryMessage; wait: number };
} {
  return processSingleton("deployedDelivery", () => {
    const region = process.env.AWS_REGION;
    const { SQSClient } = require("@aws-sdk/client-sqs") as typeof import("@aws-sdk/client-sqs");
    const { EventBridgeClient } = require("@aws-sdk/client-eventbridge") as typeof import("@aws-sdk/client-eventbridge");
    const { SqsDeliveryQueue } = require("./sqs/deliveryQueue") as typeof import("./sqs/deliveryQueue");
    const { putOnBus } = require("./eventbridge/eventBus") as typeof import("./eventbridge/eventBus");
    const { eventsOfStream } = require("./dynamodb/eventStream") as typeof import("./dynamodb/eventStream");
    const { queuedDelivery } = require("./sqs/deliveryQueue") as typeof import("./sqs/deliveryQueue");
    const queue = new SqsDeliveryQueue(new SQSClient({ region }), process.env.DELIVERY_QUEUE_URL ?? "");
    const bus = new EventBridgeClient({ region });
    return {
      queue,
      putOnBus: (events: readonly ServiceEvent[]) => putOnBus(bus, process.env.EVENT_BUS ?? "", events),
      eventsOfStream,
      queuedDelivery,
    };
  });
}

/** What a deployed delivery attempt needs: the stores, the SQS queue (for its retry), the poster, the key. */
export const deliveryDeps = (): Promise<DeliveryDeps> => deliveryDepsWith(deployedDelivery().queue);
