-- The dry run reads the gates over the audience as a relation now (decision 0020), not through
-- herald.evaluate_gates with a million-element array per argument: nothing calls this any more.
DROP FUNCTION herald.gate_verdict_counts(bigint[], text[], integer[], text, text, timestamptz, text);
