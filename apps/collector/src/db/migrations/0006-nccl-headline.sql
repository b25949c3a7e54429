-- nccl-tests runs get one headline figure, a time of their own, and their node count.
--
-- `at`: when the run happened, as the uploader said (its startedAt, else its finishedAt), else
-- when it was imported. Lists, charts, the report and the baseline order and filter by it, so a
-- backdated import lands where it belongs instead of at its import time. For rows written
-- before, an upload that gave startedAt shows as a window not ending one hour after its start.
ALTER TABLE nccl_runs ADD COLUMN at INTEGER;
UPDATE nccl_runs SET at = CASE
  WHEN started_at <> finished_at - 3600000 THEN started_at
  WHEN finished_at <> created_at THEN finished_at
  ELSE created_at
END;
CREATE INDEX nccl_runs_at ON nccl_runs (at);

-- Hosts the run spanned (its rank lines, else the nodes label): one host is judged against the
-- NVLink target, several against the fabric's; NULL when neither says.
ALTER TABLE nccl_runs ADD COLUMN nodes INTEGER;
UPDATE nccl_runs SET nodes = CASE
  WHEN json_array_length(hosts) > 0 THEN json_array_length(hosts)
  ELSE json_extract(labels, '$.nodes')
END;

-- peak_busbw is now the headline: the peak busbw over rows of at least 1 GiB (else of the
-- largest size), and peak_size the size it was measured at. It was the peak over every size,
-- and an import could store Infinity or 1e308 (issue 14): recompute it from the stored rows,
-- counting only values a fabric can carry (0..4000 GB/s, the default NCCL_MAX_BUSBW_GBS).
ALTER TABLE nccl_runs ADD COLUMN peak_size INTEGER;
UPDATE nccl_runs SET (peak_busbw, peak_size) = (
  SELECT best, size_bytes FROM (
    SELECT r.size_bytes, MAX(
      CASE WHEN r.oop_busbw BETWEEN 0 AND 4000 THEN r.oop_busbw ELSE -1 END,
      CASE WHEN r.ip_busbw BETWEEN 0 AND 4000 THEN r.ip_busbw ELSE -1 END
    ) AS best
    FROM nccl_results r
    WHERE r.run_id = nccl_runs.id
      AND r.size_bytes >= MIN(1073741824, (SELECT MAX(size_bytes) FROM nccl_results WHERE run_id = nccl_runs.id))
  )
  WHERE best >= 0 ORDER BY best DESC, size_bytes DESC LIMIT 1
);
UPDATE nccl_runs SET avg_busbw = NULL WHERE NOT (avg_busbw BETWEEN 0 AND 4000);

-- Verdicts follow the headline: without one a run is 'unknown' (an all-Infinity log had passed);
-- a pass or fail is judged again against its stored target. Host-memory fallbacks stand.
UPDATE nccl_runs SET verdict = 'unknown', regression = 0 WHERE peak_busbw IS NULL;
UPDATE nccl_runs SET verdict = CASE WHEN peak_busbw >= target THEN 'pass' ELSE 'fail' END
  WHERE peak_busbw IS NOT NULL AND target IS NOT NULL AND verdict IN ('pass', 'fail');

-- The import's warnings (rows refused, labels contradicting the log) belong to the run: scans
-- are pruned after IBWATCH_RETENTION_SCAN_DAYS, runs are kept.
ALTER TABLE nccl_runs ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]';
UPDATE nccl_runs SET warnings = COALESCE((SELECT s.warnings FROM scans s WHERE s.id = nccl_runs.scan_id), '[]');
