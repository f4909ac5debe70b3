import { http, type OfflineServer, startOffline } from "../../support/offlineServer";

jest.setTimeout(120_000);
const TASKS = "/todo/api/v1.0/tasks";

/**
 * The evidence behind the README's warning: with the memory store, functions that run in separate
 * containers (here: serverless offline's worker threads, one per function, as on AWS) do not
 * share state. A task created by createTask is invisible to listTasks and getTask.
 */
describe("memory store in worker-thread mode (one worker per function, like separate Lambda containers)", () => {
  let server: OfflineServer;
  beforeAll(async () => {
    server = await startOffline({ STORE: "memory", OFFLINE_IN_PROCESS: "false" });
  });
  afterAll(() => server?.stop());

  it("splits state: a created task is not seen by the other functions", async () => {
    const created = await http(server.baseUrl, "POST", TASKS, {
      headers: { "content-type": "application/json" },
      body: '{"title":"lost"}',
    });
    expect(created).toMatchObject({ status: 201, body: { task: { id: 1, title: "lost" } } });
    expect((await http(server.baseUrl, "GET", TASKS)).body).toEqual({ tasks: [] });
    expect((await http(server.baseUrl, "GET", `${TASKS}/1`)).status).toBe(404);
    // The create function's own container still has it: the next create continues from there.
    expect(
      (await http(server.baseUrl, "POST", TASKS, { headers: { "content-type": "application/json" }, body: '{"title":"again"}' })).body.task
        .id,
    ).toBe(2);
  });
});
