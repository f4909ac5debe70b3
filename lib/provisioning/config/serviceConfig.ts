import { ValidationError } from "../../errors";
import type { ConfigRecord, StoresOf } from "../ports";
import { assertRecordFits } from "../recordSize";
import { updateOrCreate } from "../recordStore";
import { redact } from "../secrets";

/**
 * What the deployment sets (from its environment, the same in every container until the next
 * deploy): GET /config answers these keys, and PATCH /config may not change them.
 */
export type DeploymentConfig = Readonly<Record<string, unknown>>;

const RUNTIME = "runtime";
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** GET /config: the deployment's keys and those set at run time, every secret redacted (RackHD answered them in plain text). */
export async function serviceConfig(stores: StoresOf<"config">, deployment: DeploymentConfig): Promise<Record<string, unknown>> {
  const runtime = (await stores.config.get(RUNTIME))?.values ?? {};
  return redact({ ...runtime, ...deployment });
}

/**
 * PATCH /config: each top-level key is set (a nested object replaces the whole key, as RackHD's
 * did), stored so that every container answers it. A key the deployment sets may only be sent
 * with the value GET answers (so a client can PATCH back a whole config it read, as FIT does);
 * changing it takes a deploy, because each function reads it from its environment.
 */
export async function patchServiceConfig(
  stores: StoresOf<"config">,
  deployment: DeploymentConfig,
  body: Record<string, unknown>,
  now: Date,
): Promise<Record<string, unknown>> {
  const answered = redact(deployment);
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (UNSAFE_KEYS.has(key)) continue;
    if (Object.hasOwn(deployment, key)) {
      if (JSON.stringify(value) !== JSON.stringify(answered[key])) {
        throw new ValidationError(`${key} is set by the deployment (its environment) and cannot change at run time`);
      }
      continue;
    }
    changes[key] = value;
  }
  if (Object.keys(changes).length > 0) {
    await changeConfigRecord(
      stores,
      RUNTIME,
      (values) => {
        const next = { ...values, ...changes };
        assertRecordFits(next, "config");
        return next;
      },
      now,
    );
  }
  return serviceConfig(stores, deployment);
}

/**
 * Applies `change` to the values of a config record, creating it when there is none (another
 * request creating it first is no error: the change is applied to theirs). Answers the record.
 */
export async function changeConfigRecord(
  stores: StoresOf<"config">,
  id: string,
  change: (values: Record<string, unknown>) => Record<string, unknown>,
  now: Date,
): Promise<ConfigRecord> {
  const stamp = now.toISOString();
  const apply = (record: ConfigRecord): ConfigRecord => {
    const values = change(record.values);
    return values === record.values ? record : { ...record, values, updatedAt: stamp };
  };
  return updateOrCreate(stores.config, id, apply, () => ({ id, values: {}, createdAt: stamp, updatedAt: stamp }));
}
