// The DynamoDB section's container: started by bench/dynamodb.ts with STORE=dynamodb and the
// table's settings in its environment; loads the bundles and prints its figures as JSON.

import { join } from "node:path";
import { bundleDir } from "./bundles";
import { measureDynamo } from "./dynamodb";
import type { Handler } from "./harness";

const names = ["createTask", "deleteTask", "getTask", "updateTask", "listTasks", "setNodeObm", "getNode", "patchNode", "startWorkflow"];
const handlers: Record<string, Handler> = {};
for (const name of names) handlers[name] = require(join(bundleDir("dynamodb"), `${name}.js`)).handler;

measureDynamo(handlers, Number(process.argv[2])).then(
  (figures) => {
    process.stdout.write(JSON.stringify(figures));
    process.exit(0);
  },
  (error: Error) => {
    process.stderr.write(String(error.stack));
    process.exit(1);
  },
);
