module.exports = async () => {
  await globalThis.__DYNAMODB_LOCAL__?.stop();
};
