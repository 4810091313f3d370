/**
 * The support desk of tenant acme (and of globex, whose data acme must never see): a few
 * docs and accounts for exercise 11's tests and `lab triage`.
 */

/** The chapter's search dump: 346 ranked hits, 38,059 characters, all about rotating a key. */
export function searchDump(): string {
  const rows: string[] = [];
  for (let i = 1; rows.reduce((n, r) => n + r.length + 1, 0) < 38_000; i++) {
    rows.push(
      `${String(i).padStart(3)}. [docs/api-keys.md#rotate] 0.${70 + (i % 10)} :: Settings > API keys > Rotate: ` + "the earlier key works for 24 more hours.",
    );
  }
  return rows.join("\n");
}

export const SUPPORT_DOCS: Record<string, string> = {
  "docs/api-keys.md": "Rotate a key from Settings > API keys > Rotate. The earlier key works for 24 more hours, then is refused.",
  "docs/billing.md": "Invoices are issued on the 1st. A refund needs the order id and the account owner's confirmation.",
};

export interface ApiKey {
  id: string;
  name: string;
  created: string;
  lastUsed: string;
  scopes: string[];
}
export interface Ticket {
  id: string;
  opened: string;
  subject: string;
  status: "open" | "solved";
}
export interface Account {
  tenant: string;
  plan: string;
  owner: string;
  region: string;
  seats: { used: number; paid: number };
  keys: ApiKey[];
  members: Array<{ email: string; role: "owner" | "admin" | "developer" | "billing" }>;
  recentTickets: Ticket[];
}

const key = (id: string, name: string, created: string, lastUsed: string, ...scopes: string[]): ApiKey => ({ id, name, created, lastUsed, scopes });
const ticket = (id: string, opened: string, subject: string, status: Ticket["status"] = "solved"): Ticket => ({ id, opened, subject, status });

/** The whole account record get_account returns: acme's is the one the walk-through reads. */
export const ACCOUNTS: Record<string, Account> = {
  acme: {
    tenant: "acme",
    plan: "Team",
    owner: "ops@acme.example",
    region: "eu-west",
    seats: { used: 14, paid: 20 },
    keys: [
      key("key_01H8ACME7Q2P", "production", "2026-03-02", "2026-11-30", "read", "write"),
      key("key_01H9ACMEX4KD", "ci-pipeline", "2026-05-17", "2026-11-29", "read"),
      key("key_01HAACMEM3ZT", "analytics-export", "2026-08-09", "2026-10-12", "read"),
    ],
    members: [
      { email: "ops@acme.example", role: "owner" },
      { email: "dana@acme.example", role: "admin" },
      { email: "lee@acme.example", role: "developer" },
      { email: "sam@acme.example", role: "developer" },
      { email: "ravi@acme.example", role: "developer" },
      { email: "finance@acme.example", role: "billing" },
    ],
    recentTickets: [
      ticket("T-4121", "2026-11-28", "How do we rotate the production key without downtime?", "open"),
      ticket("T-4087", "2026-11-14", "CI pipeline gets 401 after a teammate left the workspace"),
      ticket("T-4012", "2026-10-30", "Invoice for October shows 22 seats, we pay for 20"),
      ticket("T-3968", "2026-10-12", "Analytics export stopped: key last used on 12 October"),
      ticket("T-3901", "2026-09-21", "Rate limited at 50 requests per minute on the Team plan"),
      ticket("T-3855", "2026-09-03", "Add a second admin so the owner is not the only one"),
      ticket("T-3790", "2026-08-09", "New read-only key for the analytics export job"),
      ticket("T-3702", "2026-07-15", "Webhook retries arrive twice after a timeout"),
      ticket("T-3655", "2026-06-30", "Export the audit log as CSV for the SOC2 type II review"),
    ],
  },
  globex: {
    tenant: "globex",
    plan: "Enterprise",
    owner: "cfo@globex.example",
    region: "us-east",
    seats: { used: 380, paid: 400 },
    keys: [key("key_01H7GLBX9W1M", "production", "2025-12-01", "2026-11-30", "read", "write")],
    members: [{ email: "cfo@globex.example", role: "owner" }],
    recentTickets: [ticket("T-4100", "2026-11-20", "Raise the rate limit for the year-end batch", "open")],
  },
};

/**
 * What acme's semantic cache already holds: an answer about how often to rotate, whose question
 * sits at 0.91 from "how do I rotate an API key" (under the 0.98 threshold, so that is a miss).
 */
export const ACME_CACHED: Record<string, string> = {
  "acme\u0000how often do I rotate an API key": "Claim 1: Rotate every key at least every 90 days, and at once if it may have leaked [src:docs/api-keys.md]",
};

/** What a tool call did, as the dispatcher saw it: the tenant is the run's, never the model's. */
export interface DispatchRecord {
  name: string;
  input: Record<string, unknown>;
  tenant: string;
  start: number;
  end: number;
}
