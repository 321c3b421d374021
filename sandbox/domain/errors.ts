import { describeFieldProblems, type FieldProblem } from "../../sdk/nodejs/contract/index.ts";

/**
 * The sandbox's domain errors: what went wrong in terms of the service (a missing wallet, a body
 * that breaks a rule, a requestId reused with another body), never in terms of HTTP. Domain and
 * store code throw these; `sandbox/http/errors.ts` alone decides which status and error code each
 * becomes, so a rule is never answered two different ways.
 */

/** Marks every domain error; `Symbol.for` so two copies of this module recognise each other's errors. */
const DOMAIN_ERROR: unique symbol = Symbol.for("portfolio-wallet.sandbox.DomainError");

/** What kind of failure a domain error is; the HTTP layer maps each kind to one status and code. */
export type DomainErrorKind =
  "not_found" | "validation" | "conflict" | "idempotency_conflict" | "insufficient_funds";

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** Field-level problems, each naming its field; empty when the error is about no field. */
  readonly details: FieldProblem[];
  readonly [DOMAIN_ERROR] = true;

  constructor(message: string, details: FieldProblem[] = []) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }

  /** True for a domain error of this or another copy of this module (for example a built one). */
  static isInstance(value: unknown): value is DomainError {
    return (
      value instanceof Error &&
      (value as Partial<Record<typeof DOMAIN_ERROR, boolean>>)[DOMAIN_ERROR] === true
    );
  }
}

/** Something the caller named does not exist, or belongs to another organization. */
export class NotFoundError extends DomainError {
  readonly kind = "not_found";
  /** `what` names the thing: `portfolio wallet <id>`. */
  constructor(what: string, details: FieldProblem[] = []) {
    super(`${what} was not found`, details);
  }
}

/** The request breaks a rule the schema could not check; every bad field is named at once. */
export class ValidationError extends DomainError {
  readonly kind = "validation";
  constructor(problems: FieldProblem[], summary = "the request is invalid") {
    super(`${summary}: ${describeFieldProblems(problems)}`, problems);
  }
}

/** The request is valid but clashes with the resource's current state (retrying later may work). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}

/** A requestId (or transaction hash) already stands for a different request. */
export class IdempotencyConflictError extends DomainError {
  readonly kind = "idempotency_conflict";
}

/** The wallet cannot pay the amount asked for. */
export class InsufficientFundsError extends DomainError {
  readonly kind = "insufficient_funds";
}
