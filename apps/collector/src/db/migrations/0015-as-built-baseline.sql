-- The as-built cabling every topology scan and ibdiagnet import is validated against
-- (`ibwatch baseline set` / `ibwatch baseline import FILE`). Names and types are kept with the
-- links: an imported topology file may name nodes this database has never seen.
CREATE TABLE as_built_links (
  a_guid  TEXT NOT NULL,
  a_port  INTEGER NOT NULL,
  a_name  TEXT,
  a_type  TEXT,
  b_guid  TEXT NOT NULL,
  b_port  INTEGER NOT NULL,
  b_name  TEXT,
  b_type  TEXT,
  width   TEXT,
  speed   TEXT,
  PRIMARY KEY (a_guid, a_port, b_guid, b_port)
) WITHOUT ROWID;

-- One row: when and from what the as-built was set.
CREATE TABLE as_built_info (
  id     INTEGER PRIMARY KEY CHECK (id = 1),
  set_at INTEGER NOT NULL,
  source TEXT NOT NULL,
  links  INTEGER NOT NULL
);
