/** What the assembled loop's hidden tests (and `lab triage`) stand on: the reference parts and the acme fixture. */
export { CACHE_THRESHOLD, GUARD_NUDGE, referenceParts, TRIAGE_TOOLS, virtualClock, WRAP_UP, type CacheLookup, type PartsOptions } from "./integrated-parts.js";
export { ACCOUNTS, ACME_CACHED, searchDump, SUPPORT_DOCS, type DispatchRecord } from "./acme-fixture.js";
