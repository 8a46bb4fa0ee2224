import type { PlannedScenario, Scenario } from "./scenario.ts";
import { chartsScenario } from "./scenarios/charts.ts";
import { criticalIdleScenario } from "./scenarios/critical-idle.ts";
import { criticalLoadScenario } from "./scenarios/critical-load.ts";
import { dispatchLatencyScenario } from "./scenarios/dispatch-latency.ts";
import { dispatchScenario } from "./scenarios/dispatch.ts";
import { emitScenario } from "./scenarios/emit.ts";
import { fanOutScenario } from "./scenarios/fan-out.ts";
import { ingestBatchScenario } from "./scenarios/ingest-batch.ts";
import { ingestScenario } from "./scenarios/ingest.ts";
import { memoryScenario } from "./scenarios/memory.ts";
import { segmentCountScenario } from "./scenarios/segment-count.ts";
import { timelineScenario } from "./scenarios/timeline.ts";

const planned = (name: string, summary: string): PlannedScenario => ({ name, summary, run: null });

/** Every scenario of the benchmark issue, in the order they run; `run: null` ones print "not built". */
export const SCENARIOS: ReadonlyArray<Scenario | PlannedScenario> = [
  ingestScenario,
  ingestBatchScenario,
  emitScenario,
  dispatchScenario,
  dispatchLatencyScenario,
  criticalIdleScenario,
  criticalLoadScenario,
  fanOutScenario,
  segmentCountScenario,
  timelineScenario,
  chartsScenario,
  // Last: it reports the highest server RSS of every scenario above that ran.
  memoryScenario,
];
