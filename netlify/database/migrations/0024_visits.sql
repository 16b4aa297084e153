-- 0024: page views and visitors without cookies (src/server/visits/). Only rollups are kept; the day's random salt
-- and the day's marks (keyed hashes that let a visitor count once) are deleted after 48 hours.

-- The day's random salt (UTC day), made by the first counted view of the day; deleted when the day after is over.
CREATE TABLE visit_salt (
  day date PRIMARY KEY,
  salt bytea NOT NULL CONSTRAINT visit_salt_length_check CHECK (length(salt) = 32)
);

-- What is kept: views and visitors per day, page, source, medium, campaign, referring host and share link. Page '*'
-- is the site: views that arrived from elsewhere (or typed in), and the day's distinct visitors of that combination.
CREATE TABLE visit_rollup (
  day date NOT NULL,
  page text NOT NULL,
  source text NULL,
  medium text NULL,
  campaign text NULL,
  referrer text NULL,
  by_share_link boolean NOT NULL,
  views bigint NOT NULL,
  visitors bigint NOT NULL,
  CONSTRAINT visit_rollup_key UNIQUE NULLS NOT DISTINCT (day, page, source, medium, campaign, referrer, by_share_link)
);

-- A day's marks: each a keyed hash (the day's salt) of one visitor and one rollup key, 16 bytes, with nothing beside
-- it that names the visitor, the page or the source. A new mark is a new visitor of that key; the marks go with their
-- day's salt.
CREATE TABLE visit_seen (
  day date NOT NULL,
  mark bytea NOT NULL,
  CONSTRAINT visit_seen_key PRIMARY KEY (day, mark)
);
