// One cold start: a fresh Node process loads a bundled handler and answers one event.
// performance.now() counts from the process's start, so `firstResponseMs` covers Node's own
// start-up, loading the bundle and the first invocation.
const [bundle, eventJson] = process.argv.slice(2);
const beforeLoad = performance.now();
const { handler } = require(bundle);
const loaded = performance.now();
const context = { awsRequestId: "cold", functionName: "cold", getRemainingTimeInMillis: () => 10000 };
Promise.resolve(handler(JSON.parse(eventJson), context)).then((answer) => {
  const done = performance.now();
  process.stdout.write(
    JSON.stringify({ loadMs: loaded - beforeLoad, invokeMs: done - loaded, firstResponseMs: done, status: answer.statusCode }),
  );
});
