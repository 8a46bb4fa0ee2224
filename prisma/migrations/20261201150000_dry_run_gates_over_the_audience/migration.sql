-- The dry run reads the gates over the audience as a relation now (decision 0020), not through
-- herald.evaluate_gates with a million-element array per argument: nothing calls this any more.
-- IF EXISTS: a test builds a database "before" the migration that created it, with this one applied.
DROP FUNCTION IF EXISTS herald.gate_verdict_counts(bigint[], text[], integer[], text, text, timestamptz, text);
