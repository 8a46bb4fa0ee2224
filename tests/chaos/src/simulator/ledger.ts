import type { Fault } from "./faults.ts";
import type { SimulatedProvider } from "./provider-wire.ts";

/** One request the simulator received: every one, SDK-internal retries included. */
export interface LedgerEntry {
  seq: number;
  at: Date;
  provider: SimulatedProvider | null;
  notificationId: string | null;
  address: string | null;
  bodyHash: string;
  fault: Fault;
  /** The provider would deliver it (answered ok, or accepted and then the connection dropped). */
  accepted: boolean;
}
