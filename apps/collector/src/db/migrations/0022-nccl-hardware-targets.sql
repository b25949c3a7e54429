-- nccl-tests runs: targets follow the hardware, causes only from evidence, the headline is the
-- peak (issue 33).

-- The hardware a run's log describes, the profile its target came from (or why none applies),
-- the busbw of its largest size beside the peak, and its flags.
ALTER TABLE nccl_runs ADD COLUMN gpu_model TEXT;
ALTER TABLE nccl_runs ADD COLUMN gpus_per_node INTEGER;
ALTER TABLE nccl_runs ADD COLUMN nics_per_node INTEGER;
ALTER TABLE nccl_runs ADD COLUMN nic_gbps REAL;
ALTER TABLE nccl_runs ADD COLUMN largest_busbw REAL;
ALTER TABLE nccl_runs ADD COLUMN largest_size INTEGER;
ALTER TABLE nccl_runs ADD COLUMN target_profile TEXT;
ALTER TABLE nccl_runs ADD COLUMN target_note TEXT;
ALTER TABLE nccl_runs ADD COLUMN flags TEXT NOT NULL DEFAULT '[]';

-- `ranks` stays NOT NULL (0001): 0 is "the log does not say" and reads as null. Rows before this
-- kept no GPU model of their own: the gpuModel and hcaCount labels are what is known, and GPUs
-- per node is the rank count over the hosts when it divides evenly.
UPDATE nccl_runs SET
  gpu_model = json_extract(labels, '$.gpuModel'),
  nics_per_node = json_extract(labels, '$.hcaCount'),
  gpus_per_node = CASE
    WHEN ranks > 0 AND json_array_length(hosts) > 0 AND ranks % json_array_length(hosts) = 0
    THEN ranks / json_array_length(hosts)
  END;

-- The headline is the peak busbw over every size (it was the peak at 1 GiB and up), counting
-- only values a fabric can carry (0..4000 GB/s, as 0006 did).
UPDATE nccl_runs SET (peak_busbw, peak_size) = (
  SELECT best, size_bytes FROM (
    SELECT r.size_bytes, MAX(
      CASE WHEN r.oop_busbw BETWEEN 0 AND 4000 THEN r.oop_busbw ELSE -1 END,
      CASE WHEN r.ip_busbw BETWEEN 0 AND 4000 THEN r.ip_busbw ELSE -1 END
    ) AS best
    FROM nccl_results r WHERE r.run_id = nccl_runs.id
  )
  WHERE best >= 0 ORDER BY best DESC, size_bytes DESC LIMIT 1
);
UPDATE nccl_runs SET (largest_busbw, largest_size) = (
  SELECT best, size_bytes FROM (
    SELECT r.size_bytes, MAX(
      CASE WHEN r.oop_busbw BETWEEN 0 AND 4000 THEN r.oop_busbw ELSE -1 END,
      CASE WHEN r.ip_busbw BETWEEN 0 AND 4000 THEN r.ip_busbw ELSE -1 END
    ) AS best
    FROM nccl_results r
    WHERE r.run_id = nccl_runs.id
      AND r.size_bytes = (SELECT MAX(size_bytes) FROM nccl_results WHERE run_id = nccl_runs.id)
  )
  WHERE best >= 0 ORDER BY best DESC LIMIT 1
);

-- Targets: every earlier run was judged against the 8x H100, 8x400G table, whose figures are the
-- new H100/H200 profile's. A run known to be 8x H100/H200 per node keeps its target under that
-- profile's name. A run with rank lines but no recorded GPU model keeps it too, said to be
-- assumed (its log named its GPUs; only the log knows which). A run without rank lines (a
-- header-less paste) named no hardware at all: it loses the target, and its pass or fail
-- becomes unknown, as such a log is judged now.
UPDATE nccl_runs SET target_profile = CASE
    WHEN gpus_per_node = 8 AND upper(gpu_model) LIKE '%H200%' THEN '8x H200, 8x400G'
    WHEN gpus_per_node = 8 AND upper(gpu_model) LIKE '%H100%' THEN '8x H100, 8x400G'
    ELSE '8x H100, 8x400G (assumed: judged before 0022, GPU model not recorded)'
  END
  WHERE target IS NOT NULL AND json_array_length(hosts) > 0;
UPDATE nccl_runs SET
  target = NULL,
  target_note = 'no target for this hardware: the log has no rank lines (GPU model and GPUs per node unknown)',
  verdict = CASE WHEN verdict IN ('pass', 'fail') THEN 'unknown' ELSE verdict END
  WHERE target IS NOT NULL AND target_profile IS NULL;
UPDATE nccl_runs
  SET target_note = 'no target: the number of nodes is unknown (no rank lines in the log, no nodes label)'
  WHERE target IS NULL AND target_note IS NULL AND nodes IS NULL;
UPDATE nccl_runs SET target_note = 'no target for this hardware: stored before targets followed the hardware'
  WHERE target IS NULL AND target_note IS NULL;

-- Causes only from evidence: a host-memory fallback read off the 50-100 GB/s band alone (GDR not
-- shown disabled by the log's lines) becomes the gdr-unknown flag, and the run is judged on its
-- target again.
UPDATE nccl_runs SET
  flags = '["gdr-unknown"]',
  verdict = CASE
    WHEN target IS NULL OR peak_busbw IS NULL THEN 'unknown'
    WHEN peak_busbw >= target THEN 'pass'
    ELSE 'fail'
  END
  WHERE verdict = 'host-memory-fallback' AND gdr NOT IN ('disabled', 'mixed');
UPDATE nccl_runs SET flags = '["gdr-off"]' WHERE verdict = 'host-memory-fallback';

-- Pass and fail follow the new headline against the kept target.
UPDATE nccl_runs SET verdict = CASE WHEN peak_busbw >= target THEN 'pass' ELSE 'fail' END
  WHERE verdict IN ('pass', 'fail') AND target IS NOT NULL AND peak_busbw IS NOT NULL;

-- The regression mark joins the flags (the column stays for older readers).
UPDATE nccl_runs SET flags = json_insert(flags, '$[#]', 'regression') WHERE regression = 1;
