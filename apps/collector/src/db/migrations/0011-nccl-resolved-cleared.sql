-- An nccl-tests finding is about one run and no scan observes it again, so before this version a
-- resolved one was never cleared and stayed "current": the overview's "Findings now" counted the
-- demo's resolved history (and any run resolved by hand) for good. Resolving one now clears it;
-- the ones resolved before are cleared as of their resolution.
UPDATE findings SET cleared_at = resolved_at
  WHERE kind LIKE 'nccl-%' AND state = 'resolved' AND cleared_at IS NULL AND resolved_at IS NOT NULL;
