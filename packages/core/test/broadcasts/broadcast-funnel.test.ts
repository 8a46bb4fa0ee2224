import { describe, expect, it } from "vitest";
import { broadcastReport, funnelOf, reportCsv, type ProgressSlice } from "../../src/broadcasts/broadcast-funnel.ts";

const slice = (s: Partial<ProgressSlice>): ProgressSlice => ({ channel: "email", version: 1, status: "sent", reason: null, count: 0, delivered: 0, opened: 0, clicked: 0, ...s });

describe("the broadcast funnel", () => {
  it("counts pending, handed over, skipped by reason, failed and canceled", () => {
    const f = funnelOf([
      slice({ status: "pending", count: 5 }),
      slice({ status: "delivered", count: 10, delivered: 10, opened: 4, clicked: 1 }),
      slice({ status: "bounced", count: 2 }),
      slice({ status: "skipped", reason: "category_disabled", count: 3 }),
      slice({ status: "dead", reason: "render_failed:data.code", count: 1 }),
      slice({ status: "canceled", reason: "broadcast_canceled", count: 4 }),
    ]);
    expect(f).toEqual({
      targeted: 25,
      pending: 5,
      sent: 12,
      delivered: 10,
      opened: 4,
      clicked: 1,
      failed: 3,
      skipped: 3,
      canceled: 4,
      byReason: { category_disabled: 3, "render_failed:data.code": 1 },
    });
  });

  it("compares each challenger variant with the control, per channel", () => {
    const report = broadcastReport(
      [
        slice({ version: 1, status: "delivered", count: 1000, delivered: 1000, opened: 200, clicked: 50 }),
        slice({ version: 2, status: "delivered", count: 1000, delivered: 1000, opened: 250, clicked: 52 }),
      ],
      [1, 2],
    );
    expect(report.comparisons).toHaveLength(1);
    expect(report.comparisons[0]).toMatchObject({ channel: "email", control: 1, challenger: 2 });
    expect(report.comparisons[0]!.opens.verdict).toBe("B wins");
    expect(report.comparisons[0]!.clicks.verdict).toBe("no difference");
    expect(reportCsv(report).split("\n")).toEqual([
      "channel,variant,targeted,sent,delivered,opened,clicked,failed,skipped,canceled,pending",
      "email,v1,1000,1000,1000,200,50,0,0,0,0",
      "email,v2,1000,1000,1000,250,52,0,0,0,0",
      "email,all,2000,2000,2000,450,102,0,0,0,0",
      "all,all,2000,2000,2000,450,102,0,0,0,0",
      "",
    ]);
  });
});
