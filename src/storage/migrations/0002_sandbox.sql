-- The sandbox world's own state: its clock, shared by every process, and the anchor of each story, so a
-- number tells the same story however often and by whichever process it is asked.

CREATE TABLE sandbox_clock (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- world time = base_world_at + (wall time - base_wall_at) * speed
  base_world_at timestamptz NOT NULL,
  base_wall_at timestamptz NOT NULL,
  speed double precision NOT NULL CHECK (speed >= 0),
  -- Set while one process walks the world forward; others answer 409 until it is done or the lease lapses.
  advancing_until timestamptz,
  updated_at timestamptz NOT NULL
);

CREATE TABLE sandbox_stories (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  seed text NOT NULL,
  scac text NOT NULL,
  number_type text NOT NULL CHECK (number_type IN ('bill_of_lading', 'booking_number', 'container')),
  number text NOT NULL,
  anchor_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT sandbox_stories_key UNIQUE (seed, scac, number_type, number)
);

-- Which story each container belongs to, so terminals and railroads (asked by container number) and a later
-- container-number request find the bill of lading's story. The first story to claim a number keeps it.
CREATE TABLE sandbox_containers (
  seed text NOT NULL,
  container_number text NOT NULL,
  story_id bigint NOT NULL REFERENCES sandbox_stories (id) ON DELETE CASCADE,
  PRIMARY KEY (seed, container_number)
);
CREATE INDEX sandbox_containers_story ON sandbox_containers (story_id);

-- Which story carries each bill of lading when the story was asked by booking or container number, so the
-- carrier's arrival notices (asked by bill of lading) tell the same story. The first story to claim one keeps it.
CREATE TABLE sandbox_documents (
  seed text NOT NULL,
  scac text NOT NULL,
  document_number text NOT NULL,
  story_id bigint NOT NULL REFERENCES sandbox_stories (id) ON DELETE CASCADE,
  PRIMARY KEY (seed, scac, document_number)
);
CREATE INDEX sandbox_documents_story ON sandbox_documents (story_id);
