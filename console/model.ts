import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type * as api from "../lib/http/provisioning/schemas";

/**
 * What the console reads from the provisioning API: the types of the API's own answer schemas
 * (the ones the handler tests check every answer against), so the console cannot drift from the
 * API. Type-only imports: no schema reaches the browser bundle.
 */
type Answer<Schema extends JSONSchema> = FromSchema<Schema, { parseIfThenElseKeywords: true }>;

export type MachineNode = Answer<typeof api.Node>;
export type ProvisionActionList = Answer<typeof api.ProvisionActionList>;
export type ProvisionAction = ProvisionActionList["actions"][number];
export type ObmSetting = MachineNode["obmSettings"][number];
export type Site = Answer<typeof api.Site>;
export type RelayCredential = Answer<typeof api.RelayCredential> & { token?: string };
export type RelayJob = Answer<typeof api.RelayJob>;
export type Workflow = Answer<typeof api.Workflow>;
export type WorkflowTask = Workflow["tasks"][string];
export type TaskState = WorkflowTask["state"];
export type GraphDefinition = Answer<typeof api.Graph>;
export type TaskDefinition = Answer<typeof api.TaskDefinitionList>[number];
export type Catalog = Answer<typeof api.Catalog>;
export type Lookup = Answer<typeof api.Lookup>;
export type NetworkPlan = Answer<typeof api.NetworkPlan>;
export type Sku = Answer<typeof api.Sku>;
export type ObmService = Answer<typeof api.ObmService>;
export type Timeline = Answer<typeof api.Timeline>;

export const isFinished = (workflow: Pick<Workflow, "_status">): boolean => workflow._status !== "running";
export type ServiceEvent = Answer<typeof api.Event>;
export type Hook = Answer<typeof api.Hook>;
export type HookWithSecret = Answer<typeof api.HookWithSecret>;
export type Delivery = Answer<typeof api.Delivery>;
export type AuditRecord = Answer<typeof api.AuditList>[number];
