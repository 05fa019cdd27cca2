/**
 * Migrations from 0013: routing outcomes, the outbox, settlements, reconciliation, the
 * operators' indexes and traces, and the console's sessions.
 */
import { statements } from "./Statements.ts"

export const operations = {
  // What routing learns from: each provider's recent outcomes per rail (health and conversion).
  "0013_routing_outcomes": statements(
    `CREATE TABLE routing_outcomes (
      id bigserial PRIMARY KEY,
      environment text NOT NULL,
      provider_id text NOT NULL,
      method_id text NOT NULL,
      family text NOT NULL CHECK (family IN ('health', 'conversion')),
      kind text NOT NULL CHECK (kind IN ('ok', 'bad', 'probe', 'converted', 'not_converted')),
      at_ms bigint NOT NULL,
      latency_ms integer NOT NULL
    )`,
    // The latest outcomes of one family are read newest first: an index range scan that stops at
    // the LIMIT, whatever the table holds.
    `CREATE INDEX routing_outcomes_latest ON routing_outcomes (environment, provider_id, method_id, family, id DESC)`,
    `CREATE INDEX routing_outcomes_age ON routing_outcomes (at_ms)`,
    `CREATE TABLE routing_configs (
      environment text NOT NULL,
      shop_id text NOT NULL,
      version integer NOT NULL,
      document text NOT NULL,
      PRIMARY KEY (environment, shop_id)
    )`
  ),
  // The account's event list (GET /events): each event names the object it is about, and a
  // shop's events are read newest first, filtered by that object or by type, through indexes.
  "0014_outbox_related": statements(
    `ALTER TABLE outbox ADD COLUMN related_id text`,
    `UPDATE outbox SET related_id = related_tx_id`,
    `CREATE INDEX outbox_related ON outbox (environment, shop_id, related_id, created_at)`,
    `CREATE INDEX outbox_type ON outbox (environment, shop_id, type, created_at)`
  ),
  // A routing outcome keeps the id its engine gave it, so that a read meeting the batch that
  // writes it while it commits counts it once (SqlRoutingStore).
  "0015_routing_outcome_local_id": statements(
    `ALTER TABLE routing_outcomes ADD COLUMN local_id text`
  ),
  // A key's lease names the execution that holds it: a heartbeat, an early end or a release
  // touches only its own claim, never that of an execution that took over a lapsed lease.
  "0016_idempotency_holder": statements(
    `ALTER TABLE idempotency_keys ADD COLUMN holder text`
  ),
  // Settlement batches: schedules and batches as documents; a line binds one journal
  // entry to one batch (primary key), so no entry can be settled twice.
  "0017_settlements": statements(
    `CREATE TABLE settlement_schedules (
      environment text NOT NULL,
      shop_id text NOT NULL,
      version integer NOT NULL,
      data jsonb NOT NULL,
      PRIMARY KEY (environment, shop_id)
    )`,
    `CREATE TABLE settlement_batches (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      status text NOT NULL,
      provider text,
      provider_ref text,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX settlement_batches_by_shop ON settlement_batches (environment, shop_id, created_at DESC, id DESC)`,
    `CREATE UNIQUE INDEX settlement_batches_one_open ON settlement_batches (environment, shop_id) WHERE status = 'open'`,
    `CREATE INDEX settlement_batches_by_provider_ref ON settlement_batches (provider, provider_ref) WHERE provider_ref IS NOT NULL`,
    `CREATE TABLE settlement_lines (
      entry_id text PRIMARY KEY REFERENCES journal_entries (id),
      batch_id text NOT NULL REFERENCES settlement_batches (id),
      seq integer NOT NULL,
      line jsonb NOT NULL
    )`,
    `CREATE INDEX settlement_lines_by_batch ON settlement_lines (batch_id, seq)`
  ),
  "0018_reconciliation": statements(
    `CREATE TABLE reconciliation_reports (
      id text PRIMARY KEY,
      environment text NOT NULL,
      provider text NOT NULL,
      file_sha256 text NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL,
      CONSTRAINT reconciliation_reports_once_per_file UNIQUE (environment, provider, file_sha256)
    )`,
    `CREATE INDEX reconciliation_reports_by_created ON reconciliation_reports (environment, created_at DESC, id DESC)`,
    `CREATE TABLE reconciliation_discrepancies (
      id text PRIMARY KEY,
      environment text NOT NULL,
      provider text NOT NULL,
      dedupe_key text NOT NULL,
      kind text NOT NULL,
      status text NOT NULL,
      report_id text NOT NULL REFERENCES reconciliation_reports (id),
      shop_id text,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL,
      CONSTRAINT reconciliation_discrepancies_once UNIQUE (environment, provider, dedupe_key)
    )`,
    `CREATE INDEX reconciliation_discrepancies_by_created ON reconciliation_discrepancies (environment, created_at DESC, id DESC)`,
    // Reading a provider's records for a report: by the references it names, or by the period.
    `CREATE INDEX payments_by_provider_ref ON payments ((data->>'provider'), (data->>'providerRef'))`,
    `CREATE INDEX payments_by_provider_completed ON payments ((data->>'provider'), (data->>'completedAt')) WHERE data->>'completedAt' IS NOT NULL`,
    `CREATE INDEX claims_by_provider_ref ON claims ((data->>'providerRef')) WHERE data->>'providerRef' IS NOT NULL`,
    `CREATE INDEX claims_by_resolved ON claims ((data->>'resolvedAt')) WHERE data->>'status' = 'approved'`
  ),
  // The backlog the metrics read at each scrape: dead jobs and dead letters without a table scan.
  "0019_backlog_indexes": statements(
    `CREATE INDEX jobs_dead ON jobs (kind) WHERE status = 'dead'`,
    `CREATE INDEX webhook_deliveries_dead ON webhook_deliveries (id) WHERE status = 'dead_letter'`
  ),
  "0020_trace_parents": statements(
    `ALTER TABLE jobs ADD COLUMN trace_parent text`,
    `ALTER TABLE webhook_deliveries ADD COLUMN trace_parent text`
  ),
  // The console's sign-ins (adapters/http/console/Sessions.ts): shared by replicas, ended by sign-out.
  "0021_console_sessions": statements(
    `CREATE TABLE console_sessions (
      id text PRIMARY KEY,
      secret_hash text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('merchant', 'operator')),
      environment text CHECK (environment IN ('sandbox', 'production')),
      csrf_token text NOT NULL,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at)`
  ),
  // The delivery log shows what the endpoint answered (core/webhooks/DeliveryLog.ts).
  "0022_webhook_response_excerpts": statements(
    `ALTER TABLE webhook_deliveries ADD COLUMN last_response_excerpt text`
  ),
  // A payment's page lists the journal entries of the payment and its claims by reference.
  "0023_journal_entries_by_reference": statements(
    `CREATE INDEX journal_entries_by_reference ON journal_entries (environment, shop_id, reference)`
  ),
  // Checkout sessions are found by the SHA-256 of their token (core/checkout/Checkout.ts): the
  // sessions written before keep working, their tokens replaced by their hashes.
  "0024_checkout_session_token_hashes": statements(
    `UPDATE checkout_sessions SET token = encode(sha256(convert_to(token, 'UTF8')), 'hex')`,
    `UPDATE checkout_sessions SET data = jsonb_set(data, '{token}', to_jsonb(token))`
  ),
  // A refused card attempt's outcome names its normalized decline, for the operator's approval report.
  "0025_routing_outcome_declines": statements(
    `ALTER TABLE routing_outcomes ADD COLUMN decline text`
  ),
  // Restricted API keys (core/auth/Permissions.ts): a secret with no publishable half, a name and
  // its permissions (a JSON array; null for a full key pair).
  "0026_restricted_keys": statements(
    `ALTER TABLE credentials ALTER COLUMN publishable_key DROP NOT NULL`,
    `ALTER TABLE credentials ADD COLUMN name text`,
    `ALTER TABLE credentials ADD COLUMN permissions text`
  ),
  // The audit log (core/audit/Audit.ts): inserted only, hash-chained per chain, listed newest first.
  "0027_audit_log": statements(
    `CREATE TABLE audit_log (
      id text NOT NULL UNIQUE,
      chain text NOT NULL,
      seq bigint NOT NULL CHECK (seq > 0),
      at timestamptz NOT NULL,
      environment text CHECK (environment IN ('sandbox', 'production')),
      merchant_id text,
      actor_kind text NOT NULL,
      actor_id text NOT NULL,
      ip text,
      operation text NOT NULL,
      object_type text NOT NULL,
      object_id text NOT NULL,
      changes text NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      PRIMARY KEY (chain, seq)
    )`,
    `CREATE INDEX audit_log_newest ON audit_log (chain, at DESC, id DESC)`,
    `CREATE INDEX audit_log_by_object ON audit_log (chain, object_id)`
  ),
  // Each audit row's hash signed with the host's key (Sealing.sign), which the database does not hold.
  "0029_audit_log_signatures": statements(
    `ALTER TABLE audit_log ADD COLUMN signature text`
  ),
  // Connector accounts (core/connectors/): one account at a provider made through the API, its
  // credentials sealed inside the document; every replica compares (id, version) about once a second.
  "0030_connector_accounts": statements(
    `CREATE TABLE connector_accounts (
      id text PRIMARY KEY,
      merchant_id text,
      version integer NOT NULL CHECK (version > 0),
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX connector_accounts_by_merchant ON connector_accounts (merchant_id, created_at)`
  ),
  // The merchant's request log, shared by replicas (core/ports/RequestLogStore.ts): each shop's
  // newest lines, read newest first through the index and trimmed on each write.
  "0031_request_log": statements(
    `CREATE TABLE request_log (
      id bigserial PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      request_id text NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      status integer NOT NULL,
      duration_ms integer NOT NULL,
      at_ms bigint NOT NULL
    )`,
    `CREATE INDEX request_log_newest ON request_log (environment, shop_id, id DESC)`
  ),
  // Team members (core/team/): the member a credential signs in (its access tokens only), and the members themselves.
  "0032_team_members": statements(
    `ALTER TABLE credentials ADD COLUMN user_id text`,
    `CREATE TABLE team_members (
      id text PRIMARY KEY,
      merchant_id text NOT NULL,
      email text NOT NULL UNIQUE,
      invitation_hash text UNIQUE,
      version integer NOT NULL CHECK (version > 0),
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX team_members_by_merchant ON team_members (merchant_id, created_at)`
  ),
  // Audit retention (core/audit/Retention.ts): where a pruned chain's verification starts, signed.
  "0033_audit_checkpoints": statements(
    `CREATE TABLE audit_checkpoints (
      chain text PRIMARY KEY,
      seq bigint NOT NULL,
      hash text NOT NULL,
      signature text
    )`
  )
}
