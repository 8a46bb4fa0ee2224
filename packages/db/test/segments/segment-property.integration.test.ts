import { evaluateRule, parseRule, describeRuleProblems, type Rule } from "@herald/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createSegment, segmentQuery } from "../../src/index.ts";
import { mulberry32, randomPopulation, randomRule } from "../support/random-segments.ts";
import { evaluationContext, insertPopulation, subjectOf, type Population } from "../support/segment-population.ts";
import { useTestDatabase } from "../support/test-database.ts";

// HERALD_SEGMENT_SEED=<n> replays one run; a failure names the seed it ran with.
const SEED = Number(process.env.HERALD_SEGMENT_SEED ?? 20261130);
const NOW = new Date("2026-11-30T12:00:00Z");
const USERS = 250;
const TREES = 400;

describe("compiled segments agree with the in-memory evaluator", () => {
  const test = useTestDatabase();
  const random = mulberry32(SEED);
  const population: Population = randomPopulation(random, USERS, NOW);
  const segments = new Map<string, Rule>();
  let externalIds = new Map<string, string>();

  beforeAll(async () => {
    const ids = await insertPopulation(test.db.pool, population);
    externalIds = new Map([...ids].map(([externalId, id]) => [id, externalId]));
    // Saved segments for trees to name: three plain ones, then two naming earlier ones.
    for (let i = 0; i < 5; i++) {
      const rule = randomRule(random, 3, i < 3 ? [] : [...segments.keys()]);
      const saved = await createSegment(test.db.pool, { name: `random ${i}`, description: "", rule, memberId: null });
      if (saved.kind !== "saved") throw new Error(`seed ${SEED}: could not save segment ${i}: ${saved.kind}`);
      segments.set(saved.id, rule);
    }
  });

  it(`on ${TREES} random trees over ${USERS} random users (seed ${SEED})`, async () => {
    const context = evaluationContext(population, NOW, segments);
    const mismatches: string[] = [];
    let nonEmpty = 0;
    for (let i = 0; i < TREES; i++) {
      const rule = randomRule(random, i % 20 === 0 ? 10 : 5, [...segments.keys()]);
      const parsed = parseRule(rule);
      if (!parsed.ok) throw new Error(`seed ${SEED}, tree ${i} does not parse: ${describeRuleProblems(parsed.problems)}\n${JSON.stringify(rule)}`);
      const expected = population.users.filter((u) => evaluateRule(parsed.rule, subjectOf(u), context)).map((u) => u.externalId).sort();
      const query = await segmentQuery(test.db.pool, parsed.rule, NOW);
      const { rows } = await test.db.pool.query<{ user_id: string }>(query.sql, query.params);
      const actual = rows.map((r) => externalIds.get(String(r.user_id))!).sort();
      if (expected.length > 0 && expected.length < USERS) nonEmpty++;
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        const onlySql = actual.filter((id) => !expected.includes(id));
        const onlyMemory = expected.filter((id) => !actual.includes(id));
        mismatches.push(`tree ${i}: ${JSON.stringify(rule)}\n  only in SQL: ${onlySql.join(", ")}\n  only in memory: ${onlyMemory.join(", ")}`);
      }
    }
    expect(mismatches, `seed ${SEED}`).toEqual([]);
    // The generator must produce trees that split the population, or the agreement says little.
    expect(nonEmpty).toBeGreaterThan(TREES / 3);
  });
});
