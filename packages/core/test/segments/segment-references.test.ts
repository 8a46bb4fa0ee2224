import { describe, expect, it } from "vitest";
import { findSegmentCycle, segmentReferences } from "../../src/segments/segment-references.ts";

describe("segmentReferences", () => {
  it("lists every segment condition with its path", () => {
    expect(
      segmentReferences({
        kind: "or",
        children: [{ kind: "segment", segmentId: "4" }, { kind: "not", child: { kind: "and", children: [{ kind: "has_email" }, { kind: "segment", segmentId: "9" }] } }],
      }),
    ).toEqual([
      { segmentId: "4", path: ["children", 0] },
      { segmentId: "9", path: ["children", 1, "child", "children", 1] },
    ]);
  });
});

describe("findSegmentCycle", () => {
  const edges = new Map([
    ["2", ["3"]],
    ["3", ["4"]],
    ["4", []],
    ["1", ["9"]],
  ]);

  it("finds the chain back to the segment being saved", () => {
    expect(findSegmentCycle("4", ["2"], edges)).toEqual(["4", "2", "3", "4"]);
    expect(findSegmentCycle("4", ["4"], edges)).toEqual(["4", "4"]);
  });

  it("ignores the saved segment's old edges and accepts a chain without a cycle", () => {
    expect(findSegmentCycle("1", ["2"], edges)).toBeNull();
    expect(findSegmentCycle("5", ["2", "3"], edges)).toBeNull();
  });
});
