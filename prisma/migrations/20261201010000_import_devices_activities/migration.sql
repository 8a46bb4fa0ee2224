-- CSV import of push devices and activities: two more kinds an import's rows can become.
ALTER TABLE herald.imports DROP CONSTRAINT imports_kind_check;
ALTER TABLE herald.imports ADD CONSTRAINT imports_kind_check CHECK (kind IN ('users', 'suppressions', 'opt_outs', 'devices', 'activities'));
