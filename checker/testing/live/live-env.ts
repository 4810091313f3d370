/** How the lab tells its workers that a run is live (see live-session.ts and gate.ts). */

/** The variable that puts a worker in live mode: the base URL of the lab's gate. */
export const LIVE_ENV = "LAB_LIVE_URL";

/** The gate's URL when this worker runs live, else null. */
export const liveUrl = (): string | null => process.env[LIVE_ENV] || null;
