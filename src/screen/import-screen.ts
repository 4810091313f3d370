/**
 * Whether to draw is decided once, by `isInteractive` from the command's own environment.
 * Ink has a second opinion, read from process.env when it is first loaded: a `CI` or
 * `CONTINUOUS_INTEGRATION` variable (even an empty one) makes it draw nothing until the app
 * exits. Hiding those while it loads keeps that decision in one place.
 */
const CI_VARIABLES = ["CI", "CONTINUOUS_INTEGRATION"] as const;

/**
 * Imports a module that brings in React and Ink, with the environment both should see
 * while they load: React's production build (the development build costs several times
 * the CPU per render, and the screen shares its process with the test runs it draws: in
 * dev mode a warm run of exercise 1 took about 250 ms longer) and no CI variables. Every
 * variable is put back at once; a NODE_ENV the user set is kept.
 */
export async function importScreen<T>(load: () => Promise<T>): Promise<T> {
  const env = process.env;
  const saved = new Map(CI_VARIABLES.map((name) => [name, env[name]] as const));
  const setNodeEnv = env["NODE_ENV"] === undefined;
  for (const name of CI_VARIABLES) delete env[name];
  if (setNodeEnv) env["NODE_ENV"] = "production";
  try {
    return await load();
  } finally {
    if (setNodeEnv) delete env["NODE_ENV"];
    for (const [name, value] of saved) if (value !== undefined) env[name] = value;
  }
}
