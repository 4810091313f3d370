/** Set in a spare worker's environment: it has time to spare, so it rehearses a hidden test's path (see warm-up.ts). */
export const WARM_UP_ENV = "LAB_WARM_UP";
