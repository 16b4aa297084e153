-- 0009: console sessions and sign-in links name their admin by a keyed hash (src/server/admin/identity.ts), no
-- longer by address. The rows written before held addresses in clear: they go (everyone signs in again once).
DELETE FROM admin_session;
DELETE FROM admin_sign_in;
