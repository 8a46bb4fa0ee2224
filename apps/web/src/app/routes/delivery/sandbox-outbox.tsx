import { SandboxOutbox } from "../../../features/sandbox/sandbox-outbox.tsx";

export function SandboxOutboxRoute() {
  return <SandboxOutbox />;
}
