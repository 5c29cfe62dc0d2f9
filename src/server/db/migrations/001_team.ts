/**
 * Migration 1: the team store's tables (issue 18). Plain SQL, applied once in one transaction by
 * migrate.ts and recorded in schema_migrations; never edited once released (a change is a new
 * migration). The SQL lives in a TypeScript module, not a .sql file, so that every way the code
 * runs (Vite's CLI bundle, vitest, tsx from source) carries it without a loader. README.md beside
 * this folder documents the schema.
 */
export const sql = `
-- People: a name, a role, and one personal token kept as its id and a scrypt hash of its secret
-- (token_kdf names the hash's parameters, e.g. scrypt:1024:8:1, so they can change later).
CREATE TABLE users (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (name <> ''),
  role        text NOT NULL CHECK (role IN ('annotator', 'lead')),
  token_id    text NOT NULL UNIQUE,
  token_hash  bytea NOT NULL,
  token_salt  bytea NOT NULL,
  token_kdf   text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);

-- A dataset: what one annotation document is about (a served run's name).
CREATE TABLE datasets (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (name <> ''),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- One person's annotation of one group. version counts the writes (1 = the first); annotation is
-- the GroupAnnotation as the version-1 file holds it, or NULL once cleared (the row, and so the
-- version, stays). submitted_at: when the person submitted the group (blind mode), else NULL.
CREATE TABLE annotations (
  dataset_id    bigint NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  user_id       bigint NOT NULL REFERENCES users (id),
  group_id      text NOT NULL,
  version       integer NOT NULL CHECK (version >= 1),
  annotation    jsonb,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  submitted_at  timestamptz,
  PRIMARY KEY (dataset_id, user_id, group_id)
);
CREATE INDEX annotations_by_group ON annotations (dataset_id, group_id);

-- The rest of one person's version-1 document (hack taxonomy, judge runs, rubrics, calibration),
-- versioned like a group, so a whole document written through the view server loses nothing.
CREATE TABLE documents (
  dataset_id  bigint NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  user_id     bigint NOT NULL REFERENCES users (id),
  version     integer NOT NULL CHECK (version >= 1),
  extras      jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dataset_id, user_id)
);

-- The adjudicated annotation of a group: a lead's resolution, versioned like a person's.
CREATE TABLE gold (
  dataset_id   bigint NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  group_id     text NOT NULL,
  version      integer NOT NULL CHECK (version >= 1),
  annotation   jsonb,
  resolved_by  bigint NOT NULL REFERENCES users (id),
  resolved_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dataset_id, group_id)
);

-- A queue a lead made: its groups (queue_items, in order) and who labels which (assignments).
-- overlap is the share of groups given to two people; filter is what the groups were chosen by.
CREATE TABLE queues (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dataset_id  bigint NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  name        text NOT NULL CHECK (name <> ''),
  blind       boolean NOT NULL,
  overlap     double precision NOT NULL CHECK (overlap >= 0 AND overlap <= 1),
  seed        bigint NOT NULL,
  filter      jsonb NOT NULL,
  created_by  bigint NOT NULL REFERENCES users (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (dataset_id, name)
);

CREATE TABLE queue_items (
  queue_id  bigint NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
  position  integer NOT NULL CHECK (position >= 0),
  group_id  text NOT NULL,
  PRIMARY KEY (queue_id, position),
  UNIQUE (queue_id, group_id)
);

CREATE TABLE assignments (
  queue_id  bigint NOT NULL,
  group_id  text NOT NULL,
  user_id   bigint NOT NULL REFERENCES users (id),
  PRIMARY KEY (queue_id, group_id, user_id),
  FOREIGN KEY (queue_id, group_id) REFERENCES queue_items (queue_id, group_id) ON DELETE CASCADE
);
CREATE INDEX assignments_by_user ON assignments (user_id, queue_id);
`;
