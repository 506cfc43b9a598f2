import type { Code } from '../../errors/error-codes.js';

/**
 * Work units one wallet response may spend on CBOR: one per decoded item, one per cborToJson
 * node and one per 256 bytes handed to the decoder. A legitimate mDL DeviceResponse with a
 * portrait costs a few thousand; the limit leaves room for dozens of documents while keeping the
 * worst case far below a second of CPU.
 */
export const DEFAULT_CBOR_BUDGET = 200_000;

/** Thrown when a response has spent its whole CBOR budget. */
export class CborBudgetExceeded extends Error {
  override readonly name = 'CborBudgetExceeded';
  readonly code = 'format.cbor_budget_exceeded' satisfies Code;
  constructor() {
    super('the CBOR in this response needs more decoding work than allowed');
  }
}

/**
 * One budget per wallet response, shared by every presentation and every nested decode in it:
 * a per-item limit would let a response multiply its work by sending many items.
 */
export class CborBudget {
  private left: number;

  constructor(readonly limit: number = DEFAULT_CBOR_BUDGET) {
    this.left = limit;
  }

  /** Units spent so far. */
  get used(): number {
    return this.limit - this.left;
  }

  spend(units: number): void {
    this.left -= units;
    if (this.left < 0) throw new CborBudgetExceeded();
  }
}
