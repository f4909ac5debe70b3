import { CapacityError } from "../../errors";

export interface BudgetLimits {
  /** Most records the store holds. */
  capacity: number;
  /** Most bytes (estimated) the records hold. */
  maxBytes: number;
}

/**
 * Bounds a memory store, so that a flood of creates is refused (507) instead of exhausting the
 * container's memory and losing everything in it.
 */
export class Budget {
  private items = 0;
  private bytes = 0;

  constructor(private readonly limits: BudgetLimits) {}

  /**
   * Accounts for a change of `items` records and `bytes` bytes (either may be negative, e.g. an
   * update that shrinks a record). Growth past a limit throws CapacityError and changes nothing.
   */
  reserve(items: number, bytes: number, what: string): void {
    if (items > 0 && this.items + items > this.limits.capacity) {
      throw new CapacityError(`The ${what} store is full (${this.limits.capacity} records)`);
    }
    if (bytes > 0 && this.bytes + bytes > this.limits.maxBytes) {
      throw new CapacityError(`The ${what} store is full (${this.limits.maxBytes} bytes)`);
    }
    this.items += items;
    this.bytes += bytes;
  }

  release(items: number, bytes: number): void {
    this.items -= items;
    this.bytes -= bytes;
  }

  get used(): { items: number; bytes: number } {
    return { items: this.items, bytes: this.bytes };
  }
}
