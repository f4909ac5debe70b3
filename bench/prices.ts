/* The list prices every cost figure uses, in a module of their own: a section that prices what it
 * measured (bench/addresses.ts) reads them without the harness (tinybench is ESM, which the unit
 * tier's document test cannot load). */

/**
 * us-east-1 list prices (2026): DynamoDB on-demand $0.625 per million write request units and
 * $0.125 per million read request units; Lambda arm64 $0.0000133334 per GB-second (1 ms billing)
 * plus $0.20 per million requests; HTTP API $1.00 per million requests.
 */
export const PRICES = {
  writeUnit: 0.625e-6,
  readUnit: 0.125e-6,
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2e-6,
  httpApiRequest: 1e-6,
  memoryGb: 1,
};
