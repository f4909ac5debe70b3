// Stops the DynamoDB Local that dynamoGlobalSetup.js started (jest runs teardowns after every test).
module.exports = async () => {
  const db = globalThis.__DYNAMODB_LOCAL__;
  globalThis.__DYNAMODB_LOCAL__ = undefined;
  await db?.stop();
  const s3 = globalThis.__S3_LOCAL__;
  globalThis.__S3_LOCAL__ = undefined;
  await s3?.stop();
};
