import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "../../..");
const STORE = join(ROOT, "lib/store/dynamodb");

/** Upper-case string literals of the DynamoDB adapters that are not partition keys. */
const NOT_PARTITIONS = new Set(["HASH", "RANGE", "ALL_NEW", "UPDATED_NEW", "PAY_PER_REQUEST", "KEYS_ONLY", "LAST", "TOTAL"]);

/** Every partition key, and every GSI1 key prefix (`NODEWF#` as `NODEWF#*`), the adapters write or read. */
function partitionsInCode(): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(STORE).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(join(STORE, file), "utf8");
    for (const [, word] of source.matchAll(/"([A-Z][A-Z]+)"/g)) if (!NOT_PARTITIONS.has(word) && !word.startsWith("E")) found.add(word);
    for (const [, prefix] of source.matchAll(/`([A-Z]+)#\$\{/g)) found.add(`${prefix}#*`);
  }
  return found;
}

/** The LeadingKeys each role of deploy/resources.dynamodb.yml may touch. */
function leadingKeys(): Map<string, Set<string>> {
  const roles = new Map<string, Set<string>>();
  let role = "";
  let inKeys = false;
  for (const line of readFileSync(join(ROOT, "deploy/resources.dynamodb.yml"), "utf8").split("\n")) {
    const roleLine = /^ {2}(\w+Role):/.exec(line);
    if (roleLine) role = roleLine[1];
    if (/dynamodb:LeadingKeys:/.test(line)) {
      inKeys = true;
      continue;
    }
    const key = /^\s+- "([^"]+)"$/.exec(line);
    if (inKeys && key) roles.set(role, (roles.get(role) ?? new Set()).add(key[1]));
    else inKeys = false;
  }
  return roles;
}

describe("the deployed roles' DynamoDB partitions", () => {
  it("grant the provisioning roles every partition the provisioning adapters use, and the task roles theirs", () => {
    const code = partitionsInCode();
    const roles = leadingKeys();
    const taskPartitions = new Set(["TASK", "TASKS"]);
    const provisioningCode = [...code].filter((key) => !taskPartitions.has(key) && key !== "IDEMPOTENCY").sort();
    expect(provisioningCode.length).toBeGreaterThan(15);
    for (const role of ["ProvisioningReadRole", "ProvisioningWriteRole"]) {
      expect([...(roles.get(role) ?? [])].filter((key) => key !== "IDEMPOTENCY").sort()).toEqual(provisioningCode);
    }
    expect(roles.get("ProvisioningWriteRole")).toContain("IDEMPOTENCY");
    expect([...(roles.get("TaskWriteRole") ?? [])].sort()).toEqual(["IDEMPOTENCY", "TASK", "TASKS"]);
  });
});
