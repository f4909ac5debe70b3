import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/**
 * A stand-in for DynamoDB's document client in the unit tier (no Java there): one table in a Map,
 * with the commands, key conditions, condition and update expressions the adapters in
 * lib/store/dynamodb write, evaluated as DynamoDB evaluates them. It is not DynamoDB: the contract
 * tier runs the same adapters against DynamoDB Local (tests/contract/); this lets the unit tier
 * reach their branches (sharded keys, older items, pages) in milliseconds. It answers no consumed
 * capacity and never throttles. Every call is recorded (`calls`) for tests that count them.
 */
type Item = Record<string, unknown>;
type Values = Record<string, unknown>;

export interface FakeTable {
  client: DynamoDBDocumentClient;
  items: Map<string, Item>;
  calls: { command: string; input: Item }[];
}

const keyOf = (item: Item) => `${String(item.pk)}\u0000${String(item.sk)}`;
const clone = <T>(value: T): T => structuredClone(value);

function resolve(name: string, names: Record<string, string> | undefined): string {
  return name.startsWith("#") ? (names?.[name] ?? name) : name;
}

/** A condition: terms joined by AND and OR (AND binds first); a term is attribute_(not_)exists(a) or `a = :v`. */
function holds(expression: string | undefined, item: Item | undefined, values: Values, names?: Record<string, string>): boolean {
  if (!expression) return true;
  return expression.split(/\s+OR\s+/).some((any) =>
    any.split(/\s+AND\s+/).every((term) => {
      const exists = /^attribute_(not_)?exists\(([#\w]+)\)$/.exec(term.trim());
      if (exists) return (item?.[resolve(exists[2], names)] !== undefined) === !exists[1];
      const equal = /^([#\w]+)\s*=\s*(:\w+)$/.exec(term.trim());
      if (equal) return item !== undefined && item[resolve(equal[1], names)] === values[equal[2]];
      throw new Error(`the fake table does not know the condition ${term}`);
    }),
  );
}

/** SET a = :x, b = if_not_exists(b, :y); ADD n :one; REMOVE a, b. */
function applyUpdate(current: Item, expression: string, values: Values, names?: Record<string, string>): Item {
  const next = { ...current };
  for (const [, action, body] of expression.matchAll(/(SET|ADD|REMOVE)\s+(.*?)(?=\s+(?:SET|ADD|REMOVE)\s|$)/g)) {
    for (const part of body.split(/,\s*(?![^(]*\))/)) {
      if (action === "REMOVE") delete next[resolve(part.trim(), names)];
      else if (action === "ADD") {
        const [name, value] = part.trim().split(/\s+/);
        next[resolve(name, names)] = Number(next[resolve(name, names)] ?? 0) + Number(values[value]);
      } else {
        const [name, value] = part.split("=").map((side) => side.trim());
        const ifNotExists = /^if_not_exists\(([#\w]+),\s*(:\w+)\)$/.exec(value);
        next[resolve(name, names)] = ifNotExists ? (next[resolve(ifNotExists[1], names)] ?? values[ifNotExists[2]]) : values[value];
      }
    }
  }
  return next;
}

function conditionFailed(reasons?: string[]): Error {
  return reasons
    ? Object.assign(new Error("Transaction cancelled"), {
        name: "TransactionCanceledException",
        CancellationReasons: reasons.map((Code) => ({ Code })),
      })
    : Object.assign(new Error("The conditional request failed"), { name: "ConditionalCheckFailedException" });
}

const INDEXES: Record<string, [string, string]> = { GSI1: ["gsi1pk", "gsi1sk"], GSI2: ["gsi2pk", "gsi2sk"] };

function query(items: Map<string, Item>, input: Item): Item {
  const [hash, range] = input.IndexName ? INDEXES[String(input.IndexName)] : ["pk", "sk"];
  const values = input.ExpressionAttributeValues as Values;
  const expression = String(input.KeyConditionExpression);
  const [hashTerm, ...rest] = expression.split(/\s+AND\s+/);
  const hashValue = values[/=\s*(:\w+)/.exec(hashTerm)![1]];
  const rangeTerm = rest.join(" AND ");
  const inRange = (sort: string): boolean => {
    if (rangeTerm === "") return true;
    const between = /BETWEEN\s+(:\w+)\s+AND\s+(:\w+)/.exec(rangeTerm);
    if (between) return sort >= String(values[between[1]]) && sort <= String(values[between[2]]);
    const prefix = /begins_with\(\w+,\s*(:\w+)\)/.exec(rangeTerm);
    if (prefix) return sort.startsWith(String(values[prefix[1]]));
    const compare = /\w+\s*([<>]=?)\s*(:\w+)/.exec(rangeTerm)!;
    const other = String(values[compare[2]]);
    return { "<": sort < other, ">": sort > other, "<=": sort <= other, ">=": sort >= other }[compare[1]]!;
  };
  const start = input.ExclusiveStartKey as Item | undefined;
  let matched = [...items.values()]
    .filter((item) => item[hash] === hashValue && item[range] !== undefined && inRange(String(item[range])))
    .sort((a, b) => (String(a[range]) < String(b[range]) ? -1 : String(a[range]) > String(b[range]) ? 1 : keyOf(a) < keyOf(b) ? -1 : 1));
  if (input.ScanIndexForward === false) matched.reverse();
  if (start) matched = matched.slice(matched.findIndex((item) => keyOf(item) === keyOf(start)) + 1);
  const limit = typeof input.Limit === "number" ? input.Limit : matched.length;
  const page = matched.slice(0, limit);
  // An index holds keys only (the tables' indexes are KEYS_ONLY).
  const shown = page.map((item) =>
    input.IndexName ? { pk: item.pk, sk: item.sk, [hash]: item[hash], [range]: item[range] } : clone(item),
  );
  const last = page[page.length - 1];
  return { Items: shown, ...(matched.length > limit && last && { LastEvaluatedKey: { pk: last.pk, sk: last.sk } }) };
}

export function fakeTable(): FakeTable {
  const items = new Map<string, Item>();
  const calls: FakeTable["calls"] = [];
  const put = (item: Item) => items.set(keyOf(item), clone(Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined))));
  const send = async (command: { constructor: { name: string }; input: Item }): Promise<Item> => {
    const input = command.input;
    const name = command.constructor.name;
    calls.push({ command: name, input });
    const values = (input.ExpressionAttributeValues ?? {}) as Values;
    const names = input.ExpressionAttributeNames as Record<string, string> | undefined;
    switch (name) {
      case "GetCommand": {
        const item = items.get(keyOf(input.Key as Item));
        return item ? { Item: clone(item) } : {};
      }
      case "PutCommand": {
        const item = input.Item as Item;
        if (!holds(input.ConditionExpression as string, items.get(keyOf(item)), values, names)) throw conditionFailed();
        put(item);
        return {};
      }
      case "DeleteCommand": {
        const key = keyOf(input.Key as Item);
        if (!holds(input.ConditionExpression as string, items.get(key), values, names)) throw conditionFailed();
        items.delete(key);
        return {};
      }
      case "UpdateCommand": {
        const key = input.Key as Item;
        const current = items.get(keyOf(key));
        if (!holds(input.ConditionExpression as string, current, values, names)) throw conditionFailed();
        const next = applyUpdate(current ?? { ...key }, String(input.UpdateExpression), values, names);
        put(next);
        return { Attributes: clone(next) };
      }
      case "QueryCommand":
        return query(items, input);
      case "BatchGetCommand": {
        const [[table, request]] = Object.entries(input.RequestItems as Record<string, { Keys: Item[] }>);
        return { Responses: { [table]: request.Keys.flatMap((key) => (items.has(keyOf(key)) ? [clone(items.get(keyOf(key))!)] : [])) } };
      }
      case "BatchWriteCommand": {
        for (const request of Object.values(input.RequestItems as Record<string, Item[]>).flat()) {
          if (request.PutRequest) put((request.PutRequest as { Item: Item }).Item);
          if (request.DeleteRequest) items.delete(keyOf((request.DeleteRequest as { Key: Item }).Key));
        }
        return {};
      }
      case "TransactWriteCommand": {
        const parts = (input.TransactItems as Record<string, Item>[]).map((entry) => {
          const [kind, part] = Object.entries(entry)[0];
          return { kind, part, key: keyOf((part.Key ?? part.Item) as Item) };
        });
        const reasons = parts.map(({ part, key }) =>
          holds(
            part.ConditionExpression as string,
            items.get(key),
            (part.ExpressionAttributeValues ?? {}) as Values,
            part.ExpressionAttributeNames as Record<string, string>,
          )
            ? "None"
            : "ConditionalCheckFailed",
        );
        if (reasons.some((reason) => reason !== "None")) throw conditionFailed(reasons);
        for (const { kind, part, key } of parts) {
          if (kind === "Put") put(part.Item as Item);
          else if (kind === "Delete") items.delete(key);
          else if (kind === "Update") {
            const next = applyUpdate(
              items.get(key) ?? { ...(part.Key as Item) },
              String(part.UpdateExpression),
              (part.ExpressionAttributeValues ?? {}) as Values,
              part.ExpressionAttributeNames as Record<string, string>,
            );
            put(next);
          }
        }
        return {};
      }
      default:
        throw new Error(`the fake table does not know ${name}`);
    }
  };
  return { client: { send } as unknown as DynamoDBDocumentClient, items, calls };
}
