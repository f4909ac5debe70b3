import { S3Client } from "@aws-sdk/client-s3";
import type { Settings } from "../../config/settings";
import { boundedClientOptions } from "../dynamodb/client";
import { answerUnavailableAs503 } from "../dynamodb/unavailable";
import { processSingleton } from "../processSingleton";

/**
 * One S3 client per container and endpoint, with the DynamoDB client's region, time-outs and mapping
 * of "not now" failures to 503. Against a local S3-compatible server (S3_ENDPOINT) paths name the
 * bucket, and without credentials in the environment the local server's default keys are used
 * (s3rver's `S3RVER`: it checks signatures, presigned URLs included).
 */
export function s3Client(config: Pick<Settings, "s3Endpoint" | "functionTimeoutSeconds">): S3Client {
  return processSingleton(`s3.client.${config.s3Endpoint ?? "aws"}`, () => {
    const local = config.s3Endpoint !== undefined;
    const client = new S3Client({
      ...boundedClientOptions(config.functionTimeoutSeconds),
      endpoint: config.s3Endpoint,
      forcePathStyle: local,
      // A checksum only where S3 requires one: presigned URLs then sign no checksum the client
      // (curl, a Go client) would have to send.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      ...(local && !process.env.AWS_ACCESS_KEY_ID && { credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } }),
    });
    answerUnavailableAs503(client);
    return client;
  });
}
