-- src/server/import/upload.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- UPLOAD_SQL.keep
INSERT INTO waitlist_import_upload (file_hash, file_name, bytes, uploaded_by) VALUES ($1, $2, decode($3, 'hex'), $4)
    ON CONFLICT (file_hash) DO NOTHING;

-- UPLOAD_SQL.get
SELECT file_name, encode(bytes, 'hex') AS hex FROM waitlist_import_upload WHERE file_hash = $1;

-- UPLOAD_SQL.drop
DELETE FROM waitlist_import_upload WHERE file_hash = $1;
