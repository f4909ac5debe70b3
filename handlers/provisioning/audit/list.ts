import { readTrail } from "../../../lib/audit/auditTrail";
import { endpoint } from "../../../lib/http/endpoint";
import { nextPageLink } from "../../../lib/http/paging";
import { readAudit } from "../../../lib/http/provisioning/audit/routes";
import { ok } from "../../../lib/http/responses";
import { auditTrailStore } from "../../../lib/store/compositionRoot";

export const handler = endpoint(readAudit, async ({ event, query }) => {
  const one = (values?: string[]) => values?.[0];
  const limit = one(query.limit);
  const { records, next } = await readTrail(
    auditTrailStore(),
    {
      actor: one(query.actor),
      node: one(query.node),
      site: one(query.site),
      since: one(query.since),
      after: one(query.next),
      limit: limit === undefined ? undefined : Number(limit),
    },
    new Date(),
  );
  const answer = ok(records);
  return next ? { ...answer, headers: { ...answer.headers, link: nextPageLink(event, next) } } : answer;
});
