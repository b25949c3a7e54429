-- The worst severity a finding ever had. `severity` is what the latest scan observed: a finding
-- that was critical at 00:45 and is major later read major everywhere, the period report too.
-- Each scan that re-observes it keeps the worse of the two; a change of severity is also written
-- to its history (finding_events, event 'severity', note 'critical → major').
ALTER TABLE findings ADD COLUMN peak_severity TEXT NOT NULL DEFAULT 'info';
-- Findings stored before this version: their history of severities was not kept, so the latest
-- is the best known peak.
UPDATE findings SET peak_severity = severity;
