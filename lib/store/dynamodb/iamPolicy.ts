import type { DataAccess, StoreName } from "../../dataAccess";

/**
 * The DynamoDB table's items by store (the `pk` values, and the `gsi1pk` values of the stores that
 * query GSI1), so that a function's declared data access (lib/dataAccess.ts) becomes its IAM
 * policy: the actions of its level on the leading keys of its stores (dynamodb:LeadingKeys).
 */
export const LEADING_KEYS: Readonly<Record<StoreName, readonly string[]>> = {
  nodes: ["NODE", "NODE#*", "NODEID", "NODESKU#*", "TAGNODE#*", "LISTNODE#*"],
  workflows: ["WF", "WF#*", "WFID", "NODEWF#*", "ACTIVE", "LISTWF#*"],
  lookups: ["LKP", "LKP#*", "LKPMAC", "LKPIP", "NODELKP#*", "LISTLKP#*"],
  definitions: ["GRAPHDEF", "TASKDEF"],
  catalogs: ["CATALOG", "CATALOG#*", "NODECAT#*", "LISTCAT#*"],
  skus: ["SKU"],
  tags: ["TAG"],
  config: ["CONFIG"],
  templates: ["TEMPLATE"],
  profiles: ["PROFILE"],
  pollers: ["POLLER"],
  pollerSamples: ["POLLERDATA"],
  files: ["FILE"],
  fileIds: ["FILEID"],
  sites: ["SITE"],
  relayCredentials: ["RELAYCRED"],
  relayJobs: ["RELAYJOB", "SITEJOBS#*"],
  relayConnections: ["RELAYCONN", "RELAYCONNSITE#*"],
  subnets: ["SUBNET"],
  addresses: ["ADDRESS", "SUBNETADDR#*"],
  instances: ["INSTANCE", "INSTANCE#*"],
  installReports: ["INSTALLREPORT", "INSTALLREPORT#*"],
  hooks: ["HOOK"],
  deliveries: ["HOOKDELIVERY#*"],
  events: ["EVENT#*"],
  tasks: ["TASK", "TASKS"],
  idempotency: ["IDEMPOTENCY"],
  authAttempts: ["AUTHFAIL#*"],
  apiTokens: ["APITOKEN", "SIGNIN"],
  audit: ["AUDIT#*"],
};

/** The stores that query an index (GSI1: a node's workflows, lookups and catalogs, a SKU's nodes; GSI2: the node and workflow lists). */
const INDEXED: ReadonlySet<StoreName> = new Set([
  "nodes",
  "workflows",
  "lookups",
  "catalogs",
  "relayJobs",
  "relayConnections",
  "addresses",
]);

export const READ_ACTIONS = ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:BatchGetItem"] as const;
// Transactions need the per-item actions on the items they write; ConditionCheckItem too.
export const WRITE_ACTIONS = [
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
  "dynamodb:BatchWriteItem",
  "dynamodb:ConditionCheckItem",
] as const;

/** What the statements name: the table, its index, the files' bucket (CloudFormation references). */
export interface PolicyTargets {
  table: unknown;
  index: unknown;
  bucketObjects: unknown;
  /** The install logs' objects (`install-logs/*`). */
  logObjects: unknown;
}

export interface Statement {
  Effect: "Allow";
  Action: string[];
  Resource: unknown[];
  Condition?: unknown;
}

const S3_ACTIONS = {
  read: ["s3:GetObject"],
  write: ["s3:GetObject", "s3:PutObject"],
  delete: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
};

/** `actions` on the items of `stores`, and on GSI1 where `queries` and one of them queries it. */
function onKeys(actions: readonly string[], stores: readonly StoreName[], targets: PolicyTargets, queries: boolean): Statement {
  const indexed = queries && stores.some((store) => INDEXED.has(store));
  return {
    Effect: "Allow",
    Action: [...actions],
    Resource: indexed ? [targets.table, targets.index] : [targets.table],
    Condition: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": stores.flatMap((store) => LEADING_KEYS[store]) } },
  };
}

/** The statements of a declaration: reads on the stores it reads or writes, writes on those it writes, the bytes as it says. */
export function dataStatements(access: DataAccess, targets: PolicyTargets): Statement[] {
  const written = access.write ?? [];
  const readable = [...(access.read ?? []), ...written];
  return [
    ...(readable.length > 0 ? [onKeys(READ_ACTIONS, readable, targets, true)] : []),
    ...(written.length > 0 ? [onKeys(WRITE_ACTIONS, written, targets, false)] : []),
    ...(access.fileBytes ? [{ Effect: "Allow" as const, Action: S3_ACTIONS[access.fileBytes], Resource: [targets.bucketObjects] }] : []),
    ...(access.logBytes ? [{ Effect: "Allow" as const, Action: S3_ACTIONS[access.logBytes], Resource: [targets.logObjects] }] : []),
  ];
}
