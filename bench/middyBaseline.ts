import middy from "@middy/core";
import { handler as bare } from "./baseline";

/**
 * The bare baseline's work inside middy with no middleware: the floor any middy 7 handler pays
 * (an AbortController and the early-timeout timer per invocation, the promise chain).
 */
export const handler = middy(bare);
