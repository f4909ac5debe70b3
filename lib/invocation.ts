import { AsyncLocalStorage } from "node:async_hooks";
import type { DataAccess } from "./dataAccess";

/** The function being run: its name and what it may do with the data (lib/dataAccess.ts). */
export interface Invocation {
  readonly function: string;
  readonly access: DataAccess;
}

// One per process: serverless offline runs every function in one process, side by side.
const current = new AsyncLocalStorage<Invocation>();

/** Runs `work` as `invocation`: every store call it makes, however deep, knows whose it is. */
export const runAs = <T>(invocation: Invocation, work: () => T): T => current.run(invocation, work);

/** The function whose work this is, if any (a test calling a domain service directly has none). */
export const currentInvocation = (): Invocation | undefined => current.getStore();
