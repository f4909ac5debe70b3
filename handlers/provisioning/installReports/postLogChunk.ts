import { relayOf } from "../../../lib/http/bootGate";
import { endpoint } from "../../../lib/http/endpoint";
import { postLogChunk } from "../../../lib/http/provisioning/installReports/routes";
import { json, redirect } from "../../../lib/http/responses";
import { bytesBody } from "../../../lib/http/textBody";
import { acceptLogChunk } from "../../../lib/provisioning/installReports/reportService";
import { bootGate, bootStores } from "../../../lib/store/compositionRoot";

/** A chunk of a log: 201 kept, 200 already kept, 307 to a presigned URL for a large one announced with ?size=. */
export const handler = endpoint(
  postLogChunk,
  async ({ event, params, query }) => {
    const size = query.size?.[0];
    const receipt = await acceptLogChunk(
      await bootStores(relayOf(event)),
      params.credential,
      { name: params.name, seq: Number(query.seq[0]), ...(size !== undefined && { size: Number(size) }), body: bytesBody(event) },
      new Date(),
    );
    if ("uploadUrl" in receipt) return redirect(307, receipt.uploadUrl, receipt);
    return json(receipt.duplicate ? 200 : 201, receipt);
  },
  { bootGate },
);
