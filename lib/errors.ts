/**
 * Domain errors. They say what went wrong in the terms of the domain; the one place that turns
 * them into HTTP answers is `lib/http/errorMapping.ts`. Nothing here knows about status codes.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export type ErrorKind =
  | "bad-request"
  | "unauthorized"
  | "not-found"
  | "method-not-allowed"
  | "conflict"
  | "payload-too-large"
  | "insufficient-storage";

/** The request is malformed or breaks a rule of the contract. */
export class ValidationError extends DomainError {
  readonly kind = "bad-request";
}

/** The thing asked for does not exist. */
export class NotFoundError extends DomainError {
  readonly kind = "not-found";
}

/** The request would break a uniqueness or state rule (a MAC already owned, an active workflow). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}

/** A store refuses to grow past its configured capacity. */
export class CapacityError extends DomainError {
  readonly kind = "insufficient-storage";
}

/** Missing or wrong credentials on a protected route. */
export class UnauthorizedError extends DomainError {
  readonly kind = "unauthorized";
}

/** The request body is larger than the configured limit. */
export class PayloadTooLargeError extends DomainError {
  readonly kind = "payload-too-large";
}

/** The path exists but not with this method. */
export class MethodNotAllowedError extends DomainError {
  readonly kind = "method-not-allowed";
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super(message);
  }
}

/** A setting has a value the service cannot run with. Not a client error: it maps to 500. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
