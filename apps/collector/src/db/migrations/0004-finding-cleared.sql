-- State and lifecycle apart. A finding is *current* while the latest scan that evaluated its
-- kind still observed its condition (cleared_at NULL); the first such scan that no longer does
-- sets cleared_at, and the views stop showing it as broken at once. Its lifecycle goes on: it
-- resolves by itself only after it has stayed cleared for IBWATCH_AUTO_RESOLVE_MIN. A finding
-- marked fixed by hand while still observed stays current until the next scan of its kind
-- clears it (if the problem persists that scan opens a new one). clean_sweeps, the count of
-- clean sweeps that used to decide both, is no longer read or written.
ALTER TABLE findings ADD COLUMN cleared_at INTEGER;

-- Findings that were counting clean sweeps were not seen by the latest scan of their kind: they
-- are cleared, as of the last time they were seen (the scan that first missed them is unknown).
UPDATE findings SET cleared_at = last_seen WHERE state != 'resolved' AND clean_sweeps > 0;
-- Resolved findings are history.
UPDATE findings SET cleared_at = COALESCE(resolved_at, last_seen) WHERE state = 'resolved';

-- Every view and every sweep reads the current findings, a few hundred among all kept ones.
CREATE INDEX findings_current ON findings (subject_type, subject_key) WHERE cleared_at IS NULL;
