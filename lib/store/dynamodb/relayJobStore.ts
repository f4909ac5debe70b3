import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { recordPosition } from "../../provisioning/listPage";
import { isFinished, type RelayJob, type RelayJobStore } from "../../provisioning/relays/job";
import { DynamoRecordStore } from "./recordStore";
import type { Journal } from "./versionedDocuments";

/**
 * Relay jobs in DynamoDB: `RELAYJOB / <id>` (versioned documents), and, while a job is not
 * finished, in GSI1 under `SITEJOBS#<site> / <createdAt>#<id>`: a relay's poll reads its site's
 * open jobs (one query, then BatchGetItem), not every job the service ever made. A job that
 * finishes is written without the index keys, which takes it out of the index.
 */
export const siteJobsIndex = (site: string) => `SITEJOBS#${site}`;

/** A job's place in its site's open jobs, while it has one. */
export const openJobIndexKey = (job: RelayJob) =>
  isFinished(job) ? undefined : { gsi1pk: siteJobsIndex(job.site), gsi1sk: recordPosition(job) };

export class DynamoRelayJobStore extends DynamoRecordStore<RelayJob> implements RelayJobStore {
  constructor(client: DynamoDBDocumentClient, table: string, journal?: Journal<RelayJob>) {
    super(client, table, "RELAYJOB", { journal, indexKey: openJobIndexKey });
  }

  openForSite(site: string): Promise<RelayJob[]> {
    return this.documents.listByIndex(siteJobsIndex(site));
  }
}
