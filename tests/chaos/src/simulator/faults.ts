import type { LedgerEntry } from "./ledger.ts";

/**
 * How the simulator answers one request. `accepted` answers are the ones the provider would
 * deliver: `ok`, `drop` (accepted, then the connection dies before the answer: a timeout
 * after acceptance, the one source of duplicates Herald cannot avoid), and a `hang` marked
 * accepted (the provider took the message and never answered).
 */
export type Fault =
  | { kind: "ok"; delayMs?: number }
  | { kind: "status"; status: number; headers?: Record<string, string>; delayMs?: number }
  | { kind: "hang"; accepted?: true }
  | { kind: "drop"; delayMs?: number }
  | { kind: "reset" };

/** Decides each request's answer; `index` counts this provider's requests in this test from 0. */
export type FaultPlan = (entry: Omit<LedgerEntry, "fault" | "accepted">, index: number) => Fault;

export const ok = (delayMs?: number): Fault => (delayMs ? { kind: "ok", delayMs } : { kind: "ok" });
export const status = (code: number, headers: Record<string, string> = {}, delayMs?: number): Fault => ({
  kind: "status",
  status: code,
  headers,
  ...(delayMs ? { delayMs } : {}),
});
export const hang = (): Fault => ({ kind: "hang" });
export const acceptThenHang = (): Fault => ({ kind: "hang", accepted: true });
export const acceptThenDrop = (delayMs?: number): Fault => (delayMs ? { kind: "drop", delayMs } : { kind: "drop" });
export const reset = (): Fault => ({ kind: "reset" });

/** Whether the provider would deliver the message after answering so. */
export function isAccepting(fault: Fault): boolean {
  return fault.kind === "ok" || fault.kind === "drop" || (fault.kind === "hang" && fault.accepted === true);
}

/** Every request answered the same way. */
export const always =
  (fault: Fault): FaultPlan =>
  () =>
    fault;

/** Every request accepted after a delay drawn evenly from `minMs`–`maxMs`: a provider's ordinary latency. */
export const latency =
  (minMs: number, maxMs: number): FaultPlan =>
  () =>
    ok(minMs + Math.floor(Math.random() * (maxMs - minMs + 1)));

/** The first `count` requests get `fault`, the rest `then`. */
export const firstRequests =
  (count: number, fault: Fault, then: Fault = ok()): FaultPlan =>
  (_entry, index) =>
    index < count ? fault : then;

/**
 * `percent` of requests get `fault`, chosen by a hash of the body and the request's index, so a
 * run is repeatable and a retried message is not doomed to the same answer.
 */
export const failPercent =
  (percent: number, fault: Fault, otherwise: Fault = ok()): FaultPlan =>
  (entry, index) =>
    (parseInt(entry.bodyHash.slice(0, 8), 16) + index * 2654435761) % 100 < percent ? fault : otherwise;
