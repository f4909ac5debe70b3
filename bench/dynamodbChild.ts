// The DynamoDB section's container: started by bench/dynamodb.ts with STORE=dynamodb and the
// table's settings in its environment; loads the bundles, measures, and prints its figures as JSON.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { bundleDir } from "./bundles";
import { capacityFigures } from "./capacity";
import { measureDynamo } from "./dynamodb";
import type { Handlers } from "./harness";

// One bundle per registry entry, by function name (bench/bundles.ts builds them from the registry).
const handlers = Object.fromEntries(
  readdirSync(bundleDir("dynamodb"))
    .filter((name) => name.endsWith(".js"))
    .map((file) => [file.slice(0, -3), require(join(bundleDir("dynamodb"), file)).handler]),
) as Handlers;
const [timeMs, repeats] = process.argv.slice(2).map(Number);

async function main() {
  const timing = await measureDynamo(handlers, timeMs);
  const capacity = await capacityFigures(handlers, process.env.DYNAMODB_ENDPOINT!, repeats);
  return { timing, capacity };
}

main().then(
  (figures) => {
    process.stdout.write(JSON.stringify(figures));
    process.exit(0);
  },
  (error: Error) => {
    process.stderr.write(String(error.stack));
    process.exit(1);
  },
);
