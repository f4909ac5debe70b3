import { accessOf } from "../../../lib/http/routes/access";
import { ROUTES } from "../../../lib/http/routes/index";

/**
 * A read never writes (issue 50: the site's job list tried to store an overdue job's failure and
 * answered 500, since its function may not write the jobs). What a GET route's entry declares is
 * both its local guard (lib/store/accessGuard.ts) and its deployed IAM policy, so holding the
 * declarations holds both.
 *
 * Two kinds of GET do write, by design, and are named here:
 * - a machine's own requests (auth `boot`): a machine fetching its profile, its commands or a file
 *   is the event the service records (its lookup, its workflow's next task), as RackHD's were;
 * - the operator reads below, which bring a record up to date when it is looked at (RackHD's way
 *   for workflows; the poller a read finds due; the upload a presigned URL completed). This list
 *   may only shrink: a new read route that writes fails here, by name.
 */
const WRITING_READS: Readonly<Record<string, string>> = {
  listFiles: "completes an upload made through a presigned URL",
  fileMetadata: "completes an upload made through a presigned URL",
  nodeTimeline: "moves the node's workflows on (RackHD's way)",
  listNodeWorkflows: "moves the node's workflows on (RackHD's way)",
  getActiveWorkflow: "moves the node's workflow on (RackHD's way)",
  listWorkflows: "moves workflows on (RackHD's way)",
  getWorkflow: "moves the workflow on (RackHD's way)",
  pollerData: "runs the poller when it is due",
  currentPollerData: "runs the poller when it is due",
};

/** What a function may write beyond its entry's own declaration: its sign-in failures, a relay's last-seen time, events. */
const IMPLIED = new Set(["authAttempts", "apiTokens", "audit", "relayCredentials", "events", "idempotency"]);

describe("read-only routes", () => {
  const reads = ROUTES.filter((entry) => entry.method === "GET" && entry.auth !== "boot");

  it("declare no write, but for the named ones", () => {
    const writing = reads
      .filter((entry) => (accessOf(entry).write ?? []).some((store) => !IMPLIED.has(store)))
      .map((entry) => entry.function)
      .sort();
    expect(writing).toEqual(Object.keys(WRITING_READS).sort());
  });

  it("include the site's job list, which an operator reads when no relay is online", () => {
    const jobs = reads.find((entry) => entry.function === "listSiteJobs");
    expect(jobs && accessOf(jobs).write?.filter((store) => !IMPLIED.has(store))).toEqual([]);
  });
});
