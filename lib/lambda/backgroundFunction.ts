import type { Context } from "aws-lambda";
import { type DataAccess, withWriteEffects } from "../dataAccess";
import { type Invocation, invocationOf, runAs } from "../invocation";
import { writeMetrics } from "../metrics";

/**
 * A function no HTTP request runs (the scheduled minute, the event stream's, the delivery
 * queue's): its work runs as its own invocation (its declared data access guarded locally, its
 * log lines annotated) and its metrics line is written however it ends. `onError` sees a failure
 * (inside the invocation) before it is thrown on to Lambda, which retries.
 */
export async function runBackground<T>(
  entry: { function: string; data: DataAccess },
  context: Context | undefined,
  work: () => Promise<T>,
  onError?: (error: Error, invocation: Invocation) => void,
): Promise<T> {
  const invocation = invocationOf(
    entry.function,
    withWriteEffects(entry.data),
    context?.awsRequestId ? { awsRequestId: context.awsRequestId } : {},
  );
  try {
    return await runAs(invocation, work);
  } catch (error) {
    if (onError) runAs(invocation, () => onError(error as Error, invocation));
    throw error;
  } finally {
    writeMetrics(invocation);
  }
}
