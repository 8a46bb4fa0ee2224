-- A batch took its tokens once, then called through them at its provider's concurrency: with a
-- slow first wave (a cold SDK, a slow provider) its last calls started a second after the bucket
-- counted them, in a later second beside calls whose tokens that second granted, and SES saw
-- 30 calls above its rate in a window. Now a call starts within half a second of its token or its
-- batch takes fresh ones, handing back the stale ones it never used in the same row update, so a
-- refresh costs the bucket nothing it had not already counted. Returned tokens fill the bucket no
-- higher than its burst.

DROP FUNCTION herald.take_tokens(text, integer);

CREATE FUNCTION herald.take_tokens(p_provider text, p_wanted integer, p_returned integer DEFAULT 0)
RETURNS TABLE (granted integer, wait_ms integer)
LANGUAGE sql AS $$
  WITH current AS (
    SELECT b.provider, b.rate_per_second,
           least(b.burst, b.tokens + greatest(p_returned, 0)
                          + extract(epoch FROM clock_timestamp() - b.refilled_at) * b.rate_per_second) AS available
      FROM herald.provider_buckets b
     WHERE b.provider = p_provider
       FOR UPDATE
  ), taken AS (
    UPDATE herald.provider_buckets b
       SET tokens = c.available - least(p_wanted, floor(c.available)::integer),
           refilled_at = clock_timestamp()
      FROM current c
     WHERE b.provider = c.provider
    RETURNING least(p_wanted, floor(c.available)::integer) AS granted, c.available, c.rate_per_second
  )
  SELECT t.granted,
         CASE WHEN t.granted < p_wanted
              THEN ceil((1 - (t.available - t.granted)) / t.rate_per_second * 1000)::integer
              ELSE 0 END
    FROM taken t
$$;
