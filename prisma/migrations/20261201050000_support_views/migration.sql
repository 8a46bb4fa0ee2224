-- Support views: find a user by a prefix of their id, email or phone as support types, and
-- link a resent notification to the one it repeats.

-- Prefix searches (LIKE 'abc%') use a btree only with pattern operators (or the C collation):
-- the database's collation is not C, so each searched column gets a text_pattern_ops index.
-- Emails are searched case-insensitively, through lower(email).
CREATE INDEX users_external_id_prefix_idx ON herald.users (external_id text_pattern_ops);
CREATE INDEX users_email_prefix_idx ON herald.users (lower(email) text_pattern_ops) WHERE email IS NOT NULL;
CREATE INDEX users_phone_prefix_idx ON herald.users (phone text_pattern_ops) WHERE phone IS NOT NULL;

-- A resend is a new notification that names the one it repeats; deleting the original (retention,
-- erasure) keeps the resend and forgets the link.
ALTER TABLE herald.notifications
  ADD COLUMN resent_from_id bigint REFERENCES herald.notifications (id) ON DELETE SET NULL;
CREATE INDEX notifications_resent_from_idx ON herald.notifications (resent_from_id) WHERE resent_from_id IS NOT NULL;
