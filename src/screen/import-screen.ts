/**
 * Imports a module that brings in React and Ink with React's production build. The
 * development build costs several times the CPU per render, and the screen shares its
 * process with the test runs it draws: in dev mode a warm run of exercise 1 took about
 * 250 ms longer. NODE_ENV is put back at once (React chooses its build when first loaded),
 * and one the user set is kept.
 */
export async function importScreen<T>(load: () => Promise<T>): Promise<T> {
  const previous = process.env["NODE_ENV"];
  if (previous !== undefined) return load();
  process.env["NODE_ENV"] = "production";
  try {
    return await load();
  } finally {
    delete process.env["NODE_ENV"];
  }
}
