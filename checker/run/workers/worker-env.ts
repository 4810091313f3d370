/** Set in a spare worker's environment: it has time to spare, so it rehearses a hidden test's path (see warm-up.ts). */
export const WARM_UP_ENV = "LAB_WARM_UP";
/**
 * Set in the environment of a worker forked while the runs have no owner: it will run one file
 * and be killed, so it starts no realm ahead for a next file (see realm/host.ts).
 */
export const ONE_FILE_ENV = "LAB_ONE_FILE";
