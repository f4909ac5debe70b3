// One writer process of the concurrency test: `count` task creates in parallel against the shared
// DynamoDB table, through the same adapter a Lambda container uses. Prints the ids it got as JSON.

import { documentClient } from "../../lib/store/dynamodb/client";
import { DynamoTaskStore } from "../../lib/store/dynamodb/taskStore";

const [endpoint, table, writer, count] = process.argv.slice(2);
const store = new DynamoTaskStore(documentClient({ dynamodbEndpoint: endpoint, functionTimeoutSeconds: 60 }), table);

void Promise.all(
  Array.from({ length: Number(count) }, (_, i) => store.create({ title: `writer ${writer} task ${i}`, description: "" })),
).then(
  (tasks) => process.stdout.write(JSON.stringify(tasks.map((task) => task.id))),
  (error: Error) => {
    process.stderr.write(String(error.stack));
    process.exit(1);
  },
);
