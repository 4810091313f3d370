/** What offloading's hidden tests need of the exercise's own: the document its injection scenario plants an instruction in. */
export { PLANTED_DOCUMENT } from "../scenarios.js";
