-- 0022: the team's own questions (src/content/questions.json), answered per person, keyed by question id.
--
-- answers: the free-text answers, {"role": "CTO"}, in clear only on a row not sealed; a sealed row keeps them
-- inside `sealed` with the other free text (src/server/data-key.ts), and this column NULL.
-- choices: the choice and multiple answers, {"team-size": "50+", "tools": ["Notion", "Roam"]}, kept in clear
-- like status and source (an option names nobody), so the People filters, waves and updates can select by them.
-- One jsonb column with a GIN index (jsonb_path_ops: containment only, a third of jsonb_ops' size) rather than a
-- row per answer: `choices @> '{"team-size": "50+"}'` finds a million rows' matches from the index, a question
-- added or removed needs no migration, and a person's answers stay in their row (an erasure removes them).
ALTER TABLE waitlist ADD COLUMN answers jsonb NULL;
ALTER TABLE waitlist ADD COLUMN choices jsonb NULL;
CREATE INDEX waitlist_choices_idx ON waitlist USING gin (choices jsonb_path_ops);

-- The webhook snapshot (0013) carries the answers: `answers` as stored (opened by the function when sealed) and
-- `choices`; the function merges them into the payload's `answers`.
CREATE OR REPLACE FUNCTION waitlist_webhook_person(w waitlist) RETURNS jsonb LANGUAGE sql STABLE AS $fn$
  SELECT jsonb_build_object('email', w.email, 'name', w.name, 'status', w.status, 'source', w.source,
    'medium', w.medium, 'campaign', w.campaign, 'referrer', w.referrer, 'page', w.page,
    'created_at', w.created_at, 'referral_code', w.referral_code, 'referrals', w.referrals,
    'key_id', w.key_id, 'sealed', w.sealed, 'answers', w.answers, 'choices', w.choices)
$fn$;
