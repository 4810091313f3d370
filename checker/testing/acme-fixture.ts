/**
 * The support desk of tenant acme (and of globex, whose data acme must never see): a few
 * docs and accounts for exercise 11's tests and `lab triage`.
 */

/** The chapter's search dump: 346 ranked hits, 38,059 characters, all about rotating a key. */
export function searchDump(): string {
  const rows: string[] = [];
  for (let i = 1; rows.reduce((n, r) => n + r.length + 1, 0) < 38_000; i++) {
    rows.push(
      `${String(i).padStart(3)}. [docs/api-keys.md#rotate] 0.${70 + (i % 10)} :: rotate from Settings > API keys; ` +
        "the old key stays valid for 24 hours.",
    );
  }
  return rows.join("\n");
}

export const SUPPORT_DOCS: Record<string, string> = {
  "docs/api-keys.md": "Rotate a key from Settings > API keys > Rotate. The old key stays valid for 24 hours, then stops working.",
  "docs/billing.md": "Invoices are issued on the 1st. A refund needs the order id and the account owner's confirmation.",
};

export interface Account { tenant: string; plan: string; owner: string; keys: number }

export const ACCOUNTS: Record<string, Account> = {
  acme: { tenant: "acme", plan: "Team", owner: "ops@acme.example", keys: 3 },
  globex: { tenant: "globex", plan: "Enterprise", owner: "cfo@globex.example", keys: 41 },
};

/** What a tool call did, as the dispatcher saw it: the tenant is the run's, never the model's. */
export interface DispatchRecord { name: string; input: Record<string, unknown>; tenant: string; start: number; end: number }
