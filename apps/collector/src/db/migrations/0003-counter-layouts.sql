-- counter_last.vals was a JSON object naming every counter of its port: 86 MB for the 63k ports
-- of a 10k-GPU fabric (1.4 KB a row), all written by the first sweep or ibdiagnet import and
-- all parsed again at start-up. A row now names its layout (the counter names, stored once) and
-- holds the values in that order, comma-separated, empty for a counter the port lacks: ~80
-- bytes a row. Rows written before (layout_id NULL) keep their JSON object and are still read.
CREATE TABLE counter_layouts (
  id    INTEGER PRIMARY KEY,
  names TEXT NOT NULL UNIQUE -- JSON array of counter names
);
ALTER TABLE counter_last ADD COLUMN layout_id INTEGER REFERENCES counter_layouts (id);
