/**
 * Creating vitest sets variables in the lab's own environment (vite's NODE_ENV=development,
 * MODE, DEV, PROD, BASE_URL). The lab's process runs no test: a screen loaded after the runner
 * would take React's development build (several times the CPU per frame), and what the lab
 * starts later would inherit them. The runner puts the environment back as it found it.
 */
export async function withEnvironmentKept<T>(create: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  try {
    return await create();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
    for (const [name, value] of Object.entries(before)) if (process.env[name] !== value) process.env[name] = value;
  }
}
