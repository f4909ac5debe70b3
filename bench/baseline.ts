/**
 * The bare baseline the endpoints are compared with: what any JSON-over-HTTP Lambda handler must
 * do at the least. Parse the body, look a record up in a Map, serialise the answer. No middy, no
 * validation, no auth, no logging.
 */
const records = new Map<string, { id: string; title: string; done: boolean }>([["1", { id: "1", title: "Buy groceries", done: false }]]);

export const handler = async (event: { body?: string; pathParameters?: Record<string, string> }) => {
  const input = event.body ? JSON.parse(event.body) : {};
  const record = records.get(event.pathParameters?.id ?? "1");
  return { statusCode: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ record, input }) };
};
