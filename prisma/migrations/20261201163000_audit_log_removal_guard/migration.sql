-- The audit log's row trigger let two removals through: retention's prune flag (meant for the
-- event log; retention never prunes the audit log) made DELETE pass, and TRUNCATE fires no row
-- trigger at all. Both are refused now, whatever flag the session set; erasure still rewrites
-- entries in place (herald.allow_erase, UPDATE only).

CREATE FUNCTION herald.refuse_audit_removal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_log_never_deleted BEFORE DELETE ON herald.audit_log
  FOR EACH ROW EXECUTE FUNCTION herald.refuse_audit_removal();
CREATE TRIGGER audit_log_never_truncated BEFORE TRUNCATE ON herald.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION herald.refuse_audit_removal();
