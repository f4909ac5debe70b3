import { combine, type DataAccess } from "../../../dataAccess";

/**
 * What moving a workflow on needs, which every route that reads or changes a workflow does
 * (RackHD's way: a workflow is brought up to date when it is looked at): its time-outs, its effect
 * tasks (a node's SKU and tags, its default pollers: provisioning/discovery/effects.ts), its relay
 * tasks (a job for the site's relay), and the graph a finished one names.
 */
export const WORKFLOW_PROGRESS: DataAccess = {
  read: ["catalogs", "definitions", "skus", "tags"],
  write: ["nodes", "pollers", "relayJobs", "workflows"],
};

/**
 * What the scheduled minute needs: running each poller that is due (its node, its samples, a job
 * for the site's relay), and marking relays gone quiet (their credentials' `lostAt`).
 */
export const POLLING: DataAccess = { read: ["nodes"], write: ["pollers", "pollerSamples", "relayCredentials", "relayJobs"] };

/** A route that moves workflows on, and needs `more` besides. */
export const withProgress = (more: DataAccess = {}): DataAccess => combine(WORKFLOW_PROGRESS, more);
