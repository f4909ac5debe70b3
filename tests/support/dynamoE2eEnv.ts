// Marks the run of the end-to-end suites on the DynamoDB store in worker-thread mode (see offlineServer.ts).
process.env.E2E_STORE = "dynamodb";
