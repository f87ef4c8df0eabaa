/**
 * Schema migrations, applied in order inside one transaction each. Append new ones; never edit a shipped one.
 */
import type Database from 'better-sqlite3';
import { rebuildAccountTotals } from './usage-totals.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Data to carry over after the schema change, in the same transaction. */
  backfill?: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'plans, accounts, keys, usage ledger, change log',
    sql: `
      CREATE TABLE plans (
        name                TEXT PRIMARY KEY,
        residency           TEXT NOT NULL CHECK (residency IN ('uk', 'eu')),
        requests_per_minute INTEGER NOT NULL CHECK (requests_per_minute > 0),
        concurrency         INTEGER NOT NULL CHECK (concurrency > 0),
        allowance           INTEGER NOT NULL CHECK (allowance >= 0),
        overage_allowed     INTEGER NOT NULL DEFAULT 0 CHECK (overage_allowed IN (0, 1)),
        overage_ceiling     INTEGER NOT NULL DEFAULT 0 CHECK (overage_ceiling >= 0),
        models              TEXT,            -- JSON array of aliases; NULL = every model
        created_at          TEXT NOT NULL
      );

      CREATE TABLE accounts (
        id                  TEXT PRIMARY KEY,
        name                TEXT NOT NULL,
        plan                TEXT NOT NULL REFERENCES plans(name),
        requests_per_minute INTEGER,         -- overrides; NULL = the plan's value
        concurrency         INTEGER,
        allowance           INTEGER,
        overage_allowed     INTEGER,
        overage_ceiling     INTEGER,
        anchor_day          INTEGER CHECK (anchor_day BETWEEN 1 AND 28),
        created_at          TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        id                  TEXT PRIMARY KEY,
        account_id          TEXT NOT NULL REFERENCES accounts(id),
        name                TEXT NOT NULL,
        key_hash            TEXT NOT NULL UNIQUE,  -- SHA-256 of the whole key; the key itself is never stored
        display             TEXT NOT NULL,         -- gw_live_AbCd…wxyz
        environment         TEXT NOT NULL CHECK (environment IN ('live', 'test')),
        residency           TEXT NOT NULL CHECK (residency IN ('uk', 'eu')),
        privacy_mode        TEXT NOT NULL CHECK (privacy_mode IN ('off', 'flag', 'redact', 'tokenise')),
        allowed_models      TEXT,                  -- JSON array or NULL
        allowed_ips         TEXT,                  -- JSON array or NULL
        expires_at          TEXT,                  -- ISO 8601 UTC or NULL
        requests_per_minute INTEGER,               -- the key's own lower cap, or NULL
        rotated_from        TEXT REFERENCES api_keys(id),
        created_at          TEXT NOT NULL,
        revoked_at          TEXT,
        last_used_at        TEXT
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);

      -- One row per admitted request, written once (request_id is the idempotency key). The source of truth
      -- for allowance and billing: counters are rebuilt from it.
      CREATE TABLE usage_ledger (
        request_id                  TEXT PRIMARY KEY,
        account_id                  TEXT NOT NULL,
        key_id                      TEXT NOT NULL,
        environment                 TEXT NOT NULL,
        model                       TEXT NOT NULL,
        input_tokens                INTEGER NOT NULL,
        output_tokens               INTEGER NOT NULL,
        cache_creation_input_tokens INTEGER NOT NULL,
        cache_read_input_tokens     INTEGER NOT NULL,
        billable_units              INTEGER NOT NULL,
        cost_units                  INTEGER NOT NULL,  -- 1e-8 GBP; 0 for test traffic
        outcome                     TEXT NOT NULL,
        finished_at_ms              INTEGER NOT NULL,
        recorded_at_ms              INTEGER NOT NULL
      );
      CREATE INDEX usage_ledger_account_time ON usage_ledger(account_id, environment, finished_at_ms);

      -- Every change gatewayctl or the dashboard makes, so a running policy service sees it within its poll.
      CREATE TABLE change_log (
        seq       INTEGER PRIMARY KEY AUTOINCREMENT,
        entity    TEXT NOT NULL,   -- plan | account | key
        entity_id TEXT NOT NULL,
        change    TEXT NOT NULL,   -- created | updated | revoked
        at_ms     INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'per-period usage totals; whether each ledger row is in the counters',
    sql: `
      -- counted = 1 once the row's units are in the allowance counter (or in a rebuild of it), so a report whose
      -- counter update failed is applied to the counter when it is retried, and never twice.
      ALTER TABLE usage_ledger ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
      CREATE INDEX usage_ledger_uncounted ON usage_ledger(account_id, counted) WHERE counted = 0;

      -- One row per account, environment, billing period and model, kept with each ledger insert, so the usage
      -- report and counter rebuilds read a few rows instead of scanning the period's ledger.
      CREATE TABLE usage_totals (
        account_id      TEXT NOT NULL,
        environment     TEXT NOT NULL,
        period_start_ms INTEGER NOT NULL,
        model           TEXT NOT NULL,
        requests        INTEGER NOT NULL,
        billable_units  INTEGER NOT NULL,
        cost_units      INTEGER NOT NULL,
        PRIMARY KEY (account_id, environment, period_start_ms, model)
      );
    `,
    backfill: (db) => {
      for (const a of db.prepare('SELECT id, anchor_day FROM accounts').all() as Array<{ id: string; anchor_day: number | null }>) {
        rebuildAccountTotals(db, a.id, a.anchor_day);
      }
    },
  },
  {
    version: 3,
    name: 'administrators, admin API tokens, dashboard sessions, append-only audit log',
    sql: `
      -- A platform administrator has no account (sees every account); an account administrator sees only its own.
      CREATE TABLE administrators (
        id            TEXT PRIMARY KEY,
        email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
        account_id    TEXT REFERENCES accounts(id),
        password_hash TEXT NOT NULL,           -- scrypt$N$r$p$salt$hash (memory-hard; see docs/decisions.md)
        created_at    TEXT NOT NULL
      );

      CREATE TABLE admin_tokens (
        id           TEXT PRIMARY KEY,
        admin_id     TEXT NOT NULL REFERENCES administrators(id),
        name         TEXT NOT NULL,
        token_hash   TEXT NOT NULL UNIQUE,    -- SHA-256 of gw_admin_…; the token itself is never stored
        display      TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        revoked_at   TEXT,
        last_used_at TEXT
      );

      CREATE TABLE admin_sessions (
        id_hash       TEXT PRIMARY KEY,       -- SHA-256 of the cookie value
        admin_id      TEXT NOT NULL REFERENCES administrators(id),
        csrf_token    TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL
      );

      -- Who changed what, when, from where. Rows are only ever added: triggers refuse updates and deletes.
      CREATE TABLE audit_log (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        at          TEXT NOT NULL,
        actor_kind  TEXT NOT NULL CHECK (actor_kind IN ('cli', 'admin', 'token', 'system')),
        actor       TEXT NOT NULL,             -- CLI user name, administrator email, or token id and its owner
        address     TEXT,                      -- source address of the HTTP request; NULL from the CLI
        account_id  TEXT,                      -- the account the change belongs to, NULL for platform-wide changes
        action      TEXT NOT NULL,             -- e.g. key.create, key.revoke, admin.create, token.revoke
        target_id   TEXT NOT NULL,
        detail      TEXT NOT NULL              -- JSON: the settings changed (never a secret)
      );
      CREATE INDEX audit_log_account ON audit_log(account_id, seq);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

      CREATE INDEX usage_ledger_key_time ON usage_ledger(key_id, finished_at_ms);
    `,
  },
];
