import type { OutboundMessage } from "../providers/provider.ts";

/** Takes up to `wanted` tokens from the provider's bucket, handing back `returned` unused ones in the same update. */
export type TakeTokens = (wanted: number, returned: number) => Promise<{ granted: number }>;

/**
 * How long a paced provider's token stays good: calls starting this late beside calls of tokens
 * granted since show the provider at most a quarter second's worth above its rate, on top of the
 * bucket's burst (`bucketBurst`). A renewal is one row update, so a short life costs little.
 */
export const TOKEN_STALE_MS = 250;

/**
 * A batch's tokens for a paced provider, handed out one per message as its first call starts
 * (providers ask through their `permit`). A batch calls at its provider's concurrency, and a slow
 * wave (a cold SDK, a slow provider, a slow attempts write before the first) would otherwise leave
 * its last calls to start a second or more after the bucket counted them, beside the calls whose
 * tokens that later second granted. So tokens older than TOKEN_STALE_MS are handed back, and the
 * messages still to start take fresh ones, in one bucket update; a message the bucket then has no
 * token for is refused and goes back to the queue, its attempt refunded.
 */
export class TokenGrant {
  /** Messages refused a token: they were never called. */
  readonly refused = new Set<string>();
  private readonly take: TakeTokens;
  private readonly unreachable: (error: unknown) => void;
  private readonly clock: () => number;
  private unused: number;
  /** Messages not yet permitted or refused: what a refresh asks for. */
  private pending: number;
  private takenAt: number;
  private refreshing: Promise<void> | null = null;

  /** `granted` tokens, just taken, for as many messages; `unreachable` hears a renewal that failed. */
  constructor(take: TakeTokens, granted: number, unreachable: (error: unknown) => void, clock: () => number = Date.now) {
    this.take = take;
    this.unreachable = unreachable;
    this.clock = clock;
    this.unused = granted;
    this.pending = granted;
    this.takenAt = clock();
  }

  /** A provider's CallPermit: at once while the tokens are fresh, after one bucket update when stale. */
  readonly permit = (message: OutboundMessage): boolean | Promise<boolean> => (this.fresh() ? this.hand(message) : this.afterRefresh(message));

  private fresh(): boolean {
    return this.clock() - this.takenAt <= TOKEN_STALE_MS;
  }

  private hand(message: OutboundMessage): boolean {
    this.pending--;
    if (this.unused > 0) {
      this.unused--;
      return true;
    }
    this.refused.add(message.notificationId);
    return false;
  }

  private async afterRefresh(message: OutboundMessage): Promise<boolean> {
    // Every message asking while one refresh is out waits for it rather than starting another.
    while (!this.fresh()) await (this.refreshing ??= this.refresh());
    return this.hand(message);
  }

  private async refresh(): Promise<void> {
    const returned = this.unused;
    this.unused = 0;
    try {
      this.unused = (await this.take(this.pending, returned)).granted;
    } catch (error) {
      // The bucket is out of reach (so, likely, is the database): what has not started does not
      // start, and the batch's results decide the rest. Throwing here would fail the calls already
      // answered along with it.
      this.unreachable(error);
    } finally {
      this.takenAt = this.clock();
      this.refreshing = null;
    }
  }
}
