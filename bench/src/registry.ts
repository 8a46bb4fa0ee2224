import type { PlannedScenario, Scenario } from "./scenario.ts";
import { chartsScenario } from "./scenarios/charts.ts";
import { criticalIdleScenario } from "./scenarios/critical-idle.ts";
import { criticalLoadScenario } from "./scenarios/critical-load.ts";
import { dispatchScenario } from "./scenarios/dispatch.ts";
import { fanOutScenario } from "./scenarios/fan-out.ts";
import { ingestScenario } from "./scenarios/ingest.ts";
import { segmentCountScenario } from "./scenarios/segment-count.ts";

const planned = (name: string, summary: string): PlannedScenario => ({ name, summary, run: null });

/** Every scenario of the benchmark issue, in the order they run; `run: null` ones print "not built". */
export const SCENARIOS: ReadonlyArray<Scenario | PlannedScenario> = [
  ingestScenario,
  planned("ingest-batch", "POST /api/v1/events/batch vs multi-row INSERT transactions"),
  planned("emit", "herald.emit inside the caller's transaction vs a plain INSERT in it"),
  dispatchScenario,
  planned("dispatch-20ms", "dispatch with 20 ms of provider latency per call"),
  criticalIdleScenario,
  criticalLoadScenario,
  fanOutScenario,
  segmentCountScenario,
  planned("timeline", "one user's notification history"),
  chartsScenario,
  planned("memory", "the server's memory over a long run"),
];
