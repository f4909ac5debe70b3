import { createHash } from "node:crypto";
import { ConflictError, NotFoundError } from "../../../lib/errors";
import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { newToken, parseToken, redactTokens, secretMatches } from "../../../lib/provisioning/credentialToken";
import { DEMO_MACS, demoNodes } from "../../../lib/provisioning/demoNodes";
import { nodeIdForMac, orderedId } from "../../../lib/provisioning/ids";
import { LookupTakenError } from "../../../lib/provisioning/lookups/lookupStore";
import { filtered, matchesFilters } from "../../../lib/provisioning/queryFilters";
import { assertRecordFits, fitsKey, KEY_MAX_BYTES, RECORD_MAX_BYTES } from "../../../lib/provisioning/recordSize";
import { type RecordStore, updateOrCreate } from "../../../lib/provisioning/recordStore";
import { keepRedactedSecrets, REDACTED } from "../../../lib/provisioning/secrets";

/** The domain's small building blocks: ids, query filters, credentials, the create-or-update race. */
describe("ids", () => {
  it("orders by seconds, milliseconds and place in the batch, each in fixed width, then 11 random hex digits", () => {
    const id = orderedId(new Date(5_010), 257);
    expect(id).toHaveLength(24);
    expect(id.slice(0, 13)).toBe("00000005" + "00a" + "01");
    expect(id.slice(13)).toMatch(/^[0-9a-f]{11}$/);
    expect(orderedId(new Date(5_010), 257)).not.toBe(id);
  });

  it("derives a node's id from its MAC: 24 hex digits, the same in every container", () => {
    const mac = "52:54:00:00:00:01";
    expect(nodeIdForMac(mac)).toBe(createHash("sha256").update(`node:${mac}`).digest("hex").slice(0, 24));
    expect(nodeIdForMac("52:54:00:00:00:02")).not.toBe(nodeIdForMac(mac));
  });
});

describe("query filters (RackHD's find(req.query))", () => {
  const node = { type: "compute", tags: ["rack-1", 7], obm: { service: "ipmi" }, name: "n1" };

  it("ignores a browser's cache-buster, and needs every other filter to match", () => {
    expect(matchesFilters(node, { _: ["1732"], type: ["compute"] })).toBe(true);
    expect(matchesFilters(node, { type: ["compute"], name: ["n2"] })).toBe(false);
  });

  it("matches an array by any item, an object by its JSON, a missing field never", () => {
    expect(matchesFilters(node, { tags: ["7"] })).toBe(true);
    expect(matchesFilters(node, { tags: ["rack-2"] })).toBe(false);
    expect(matchesFilters(node, { obm: ['{"service":"ipmi"}'] })).toBe(true);
    expect(matchesFilters(node, { obm: ["[object Object]"] })).toBe(false);
    expect(matchesFilters(node, { sku: ["undefined"] })).toBe(false);
  });

  it("answers the same list when there is no filter", () => {
    const records = [node];
    expect(filtered(records, {})).toBe(records);
    expect(filtered(records, { type: ["switch"] })).toEqual([]);
  });
});

describe("credentials", () => {
  it("reads only a whole token: the record id and a 43-character secret, nothing before or after", () => {
    const { token } = newToken("0123456789abcdef01234567");
    expect(parseToken(token)).toEqual({ id: "0123456789abcdef01234567", secret: token.split(".")[1] });
    expect(parseToken(`x${token}`)).toBeUndefined();
    expect(parseToken(`${token}x`)).toBeUndefined();
  });

  it("compares a secret with the kept hash, and refuses a kept hash of another length", () => {
    const { token, secretSha256 } = newToken("0123456789abcdef01234567");
    const secret = token.split(".")[1];
    expect(secretMatches(secret, secretSha256)).toBe(true);
    expect(secretMatches(`${secret}x`, secretSha256)).toBe(false);
    expect(secretMatches(secret, secretSha256.slice(0, 32))).toBe(false);
  });

  it("cuts every whole token in a text to the record id it names", () => {
    const { token } = newToken("0123456789abcdef01234567");
    const other = newToken("fedcba9876543210fedcba98").token;
    expect(redactTokens(`GET /seed/${token}/user-data and ${other}.`)).toBe(
      "GET /seed/0123456789abcdef01234567.REDACTED/user-data and fedcba9876543210fedcba98.REDACTED.",
    );
    // Not a token: a secret one character longer, or an id of other characters.
    expect(redactTokens(`${token}x`)).toBe(`${token}x`);
    expect(redactTokens(`zzzzzzzzzzzzzzzzzzzzzzzz.${token.split(".")[1]}`)).toBe(`zzzzzzzzzzzzzzzzzzzzzzzz.${token.split(".")[1]}`);
  });
});

describe("updateOrCreate (a create that loses a race is no error)", () => {
  type Row = { id: string; n: number };
  const storeWith = (overrides: Partial<RecordStore<Row>>): RecordStore<Row> => ({
    create: async (row) => row,
    get: async () => undefined,
    list: async () => [],
    update: async () => undefined,
    delete: async () => undefined,
    ...overrides,
  });
  const increment = (row: Row): Row => ({ ...row, n: row.n + 1 });

  it("applies the change to the record another writer created first", async () => {
    let updates = 0;
    const store = storeWith({
      create: async () => {
        throw new ConflictError("taken");
      },
      update: async (id, change) => (++updates === 1 ? undefined : change({ id, n: 10 })),
    });
    expect(await updateOrCreate(store, "a", increment, () => ({ id: "a", n: 0 }))).toEqual({ id: "a", n: 11 });
  });

  it("passes on any other failure of the create, and a conflict whose record is gone again", async () => {
    const failing = storeWith({
      create: async () => {
        throw new NotFoundError("gone");
      },
    });
    await expect(updateOrCreate(failing, "a", increment, () => ({ id: "a", n: 0 }))).rejects.toMatchObject({ kind: "not-found" });
    const vanished = storeWith({
      create: async () => {
        throw new ConflictError("taken");
      },
    });
    await expect(updateOrCreate(vanished, "a", increment, () => ({ id: "a", n: 0 }))).rejects.toMatchObject({ kind: "conflict" });
  });

  it("creates the changed initial record when there is none", async () => {
    expect(await updateOrCreate(storeWith({}), "a", increment, () => ({ id: "a", n: 0 }))).toEqual({ id: "a", n: 1 });
  });
});

describe("the API's addresses, as {{api.*}} renders them", () => {
  it("puts every collection under the server's /api/current, and the files at FILE_SERVER when given", () => {
    expect(apiContextFor("http://10.0.0.1:9080", "http://files:80")).toEqual({
      server: "http://10.0.0.1:9080",
      fileServer: "http://files:80",
      base: "http://10.0.0.1:9080/api/current",
      files: "http://10.0.0.1:9080/api/current/files",
      nodes: "http://10.0.0.1:9080/api/current/nodes",
      templates: "http://10.0.0.1:9080/api/current/templates",
      profiles: "http://10.0.0.1:9080/api/current/profiles",
      lookups: "http://10.0.0.1:9080/api/current/lookups",
    });
    expect(apiContextFor("http://s").fileServer).toBe("http://s");
  });
});

describe("record and key sizes (one DynamoDB item, one sort key)", () => {
  /** A record whose JSON is exactly `bytes` long. */
  const recordOf = (bytes: number) => ({ t: "x".repeat(bytes - '{"t":""}'.length) });

  it("keeps a record of RECORD_MAX_BYTES, refuses one byte more with 413, naming what and how large", () => {
    expect(() => assertRecordFits(recordOf(RECORD_MAX_BYTES), "node")).not.toThrow();
    expect(() => assertRecordFits(recordOf(RECORD_MAX_BYTES + 1), "node")).toThrow(
      expect.objectContaining({
        kind: "payload-too-large",
        message: `The node would take ${RECORD_MAX_BYTES + 1} bytes once stored; a node may take at most ${RECORD_MAX_BYTES} bytes`,
      }),
    );
  });

  it("finds a record by a key of up to KEY_MAX_BYTES bytes (not characters)", () => {
    expect(fitsKey("k".repeat(KEY_MAX_BYTES))).toBe(true);
    expect(fitsKey("k".repeat(KEY_MAX_BYTES + 1))).toBe(false);
    expect(fitsKey("é".repeat(KEY_MAX_BYTES / 2 + 1))).toBe(false);
  });
});

describe("the demo nodes", () => {
  it("are the two discovered compute nodes, named by their MACs, with ids from them and a fixed date", () => {
    const nodes = demoNodes();
    expect(nodes.map((node) => [node.name, node.identifiers, node.id])).toEqual(DEMO_MACS.map((mac) => [mac, [mac], nodeIdForMac(mac)]));
    expect(new Set(nodes.map((node) => node.createdAt))).toEqual(new Set(["2015-11-30T21:37:18.441Z"]));
    expect(demoNodes()).toEqual(nodes);
  });
});

describe("keepRedactedSecrets (an echoed record's REDACTED keeps the stored secret)", () => {
  it("takes anything but an object as sent, and an object as sent where nothing was stored", () => {
    expect(keepRedactedSecrets(null, { password: "x" })).toBeNull();
    expect(keepRedactedSecrets([{ password: REDACTED }], [{ password: "x" }])).toEqual([{ password: REDACTED }]);
    expect(keepRedactedSecrets("REDACTED", "x")).toBe("REDACTED");
    expect(keepRedactedSecrets({ password: REDACTED }, null)).toEqual({ password: REDACTED });
    expect(keepRedactedSecrets({ password: REDACTED }, ["x"])).toEqual({ password: REDACTED });
  });
});

describe("a taken lookup (RackHD's unique-field 400)", () => {
  it("is known by its brand, names the field and its value, and is no other error", () => {
    const taken = new LookupTakenError("macAddress", "52:54:00:00:00:01");
    expect(LookupTakenError.is(taken)).toBe(true);
    expect(taken).toMatchObject({ kind: "bad-request", message: "A lookup with macAddress 52:54:00:00:00:01 already exists" });
    expect(LookupTakenError.is(new ConflictError("taken"))).toBe(false);
    expect(LookupTakenError.is(Object.assign(new Error("x"), { name: "LookupTakenError" }))).toBe(false);
  });
});
