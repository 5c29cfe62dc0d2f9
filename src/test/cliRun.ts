/** Test helper: run the CLI in-process through main(), collecting its output and exit code. */
import { main } from "../cli/main.ts";

/** `env` replaces the process environment when given (`{}`: no ROLLOUT_STUDIO_* variables). */
export async function runCli(
  args: string[],
  cwd: string,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd,
    ...(env === undefined ? {} : { env }),
  });
  return { code, stdout, stderr };
}
