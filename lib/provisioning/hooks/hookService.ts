import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { newObjectId } from "../ids";
import type { ProvisioningStores } from "../ports";
import { fitsKey } from "../recordSize";
import { DELIVERIES_PAGE_LIMIT, type Delivery } from "./deliveryLog";
import {
  checkEventNames,
  checkFilters,
  checkHookUrl,
  HOOK_LIMITS,
  type Hook,
  type HookView,
  ROTATION_OVERLAP_MS,
  secretOf,
  viewHook,
} from "./hook";
import type { HookTargetPolicy } from "./hookTarget";

/**
 * RackHD 2.0's hooks routes (on-http's hooks-api-service: 409 on a url already registered, 204 on
 * delete), with a signing secret answered once at creation and at each rotation.
 */

export interface HookBody {
  url?: unknown;
  name?: unknown;
  filters?: unknown;
  events?: unknown;
  /** PATCH only: true re-enables a disabled hook. */
  enabled?: unknown;
}

type Stores = Pick<ProvisioningStores, "hooks" | "deliveries">;

function checkName(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== "string" || name.length > HOOK_LIMITS.nameChars) {
    throw new ValidationError(`name must be a string of at most ${HOOK_LIMITS.nameChars} characters`);
  }
  return name;
}

async function assertUrlFree(stores: Stores, url: string, except?: string): Promise<void> {
  if ((await stores.hooks.list()).some((hook) => hook.url === url && hook.id !== except)) throw new ConflictError("duplicate hook found");
}

export async function createHook(
  stores: Stores,
  body: HookBody,
  now: Date,
  signingKey: string,
  policy: HookTargetPolicy,
): Promise<HookView & { secret: string }> {
  const url = checkHookUrl(body.url, policy);
  const name = checkName(body.name);
  const hook: Hook = {
    id: newObjectId(now),
    url,
    ...(name !== undefined && { name }),
    filters: checkFilters(body.filters),
    events: checkEventNames(body.events),
    secretGeneration: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await assertUrlFree(stores, url);
  const created = await stores.hooks.create(hook);
  return { ...viewHook(created, now), secret: secretOf(signingKey, created.id, created.secretGeneration) };
}

export const listHooks = async (stores: Stores, now: Date): Promise<HookView[]> =>
  (await stores.hooks.list()).map((hook) => viewHook(hook, now));

const noHook = (id: string) => new NotFoundError(`Could not find hook ${id.slice(0, 64)}`);

async function findHook(stores: Stores, id: string): Promise<Hook> {
  const hook = fitsKey(id) ? await stores.hooks.get(id) : undefined;
  if (!hook) throw noHook(id);
  return hook;
}

/** Applies `change` to the hook (one read, in the update itself); 404 when there is none. */
async function changeHook(stores: Stores, id: string, change: (current: Hook) => Hook): Promise<Hook> {
  const updated = fitsKey(id) ? await stores.hooks.update(id, change) : undefined;
  if (!updated) throw noHook(id);
  return updated;
}

export const getHook = async (stores: Stores, id: string, now: Date): Promise<HookView> => viewHook(await findHook(stores, id), now);

/** The stored hook, for a test delivery. */
export const hookToTest = findHook;

export async function updateHook(stores: Stores, id: string, body: HookBody, now: Date, policy: HookTargetPolicy): Promise<HookView> {
  await findHook(stores, id);
  const url = body.url === undefined ? undefined : checkHookUrl(body.url, policy);
  const name = checkName(body.name);
  const filters = body.filters === undefined ? undefined : checkFilters(body.filters);
  const events = body.events === undefined ? undefined : checkEventNames(body.events);
  if (body.enabled !== undefined && body.enabled !== true)
    throw new ValidationError("enabled may only be true (a hook is disabled by its failures)");
  if (url !== undefined) await assertUrlFree(stores, url, id);
  const updated = await changeHook(stores, id, (current) => {
    const { disabledAt: _disabled, disabledReason: _reason, failingSince: _failing, ...enabled } = current;
    return {
      ...(body.enabled === true ? enabled : current),
      ...(url !== undefined && { url }),
      ...(name !== undefined && { name }),
      ...(filters !== undefined && { filters }),
      ...(events !== undefined && { events }),
      updatedAt: now.toISOString(),
    };
  });
  return viewHook(updated, now);
}

export async function deleteHook(stores: Stores, id: string): Promise<void> {
  if (!(fitsKey(id) && (await stores.hooks.delete(id)))) throw noHook(id);
}

/** A new secret, answered once; the previous one still signs (a second signature) for a day. */
export async function rotateHookSecret(stores: Stores, id: string, now: Date, signingKey: string): Promise<HookView & { secret: string }> {
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const updated = await changeHook(stores, id, (current) => ({
    ...current,
    secretGeneration: current.secretGeneration + 1,
    previousSecretUntil: until,
    updatedAt: now.toISOString(),
  }));
  return { ...viewHook(updated, now), secret: secretOf(signingKey, updated.id, updated.secretGeneration) };
}

export async function hookDeliveries(stores: Stores, id: string, limit = DELIVERIES_PAGE_LIMIT): Promise<Delivery[]> {
  await findHook(stores, id);
  return stores.deliveries.recent(id, Math.min(limit, DELIVERIES_PAGE_LIMIT));
}
