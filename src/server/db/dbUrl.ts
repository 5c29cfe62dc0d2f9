/**
 * The team store's database URL: where it comes from (`--db URL`, else ROLLOUT_STUDIO_DB) and how
 * it is shown. The URL holds the database password, so nothing prints it as given: every message
 * that names the database uses `redactDbUrl`, and every error text from the driver passes through
 * `redactSecrets` before it reaches a user (issue 18: "the database URL's password never appears
 * in output or logs").
 */

/** The environment variable that stands in for `--db`. */
export const DB_ENV = "ROLLOUT_STUDIO_DB";

const MASK = "***";

/** True for a URL the team store takes: postgres:// or postgresql://. */
export function dbUrlIsPostgres(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url.trim());
}

/**
 * The URL with its password (in the user part, or a `password=` parameter) replaced by `***`:
 * `postgres://studio:***@db.lab:5432/annotations`. A URL that does not parse is not shown at all.
 */
export function redactDbUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return "(a database URL that does not parse; not shown, it may hold a password)";
  }
  const user = parsed.username === "" ? "" : parsed.username;
  const password = parsed.password === "" ? "" : `:${MASK}`;
  const auth = user === "" && password === "" ? "" : `${user}${password}@`;
  const params = [...parsed.searchParams.entries()].map(([key, value]) =>
    key.toLowerCase() === "password" ? `${key}=${MASK}` : `${key}=${value}`,
  );
  const search = params.length === 0 ? "" : `?${params.join("&")}`;
  return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname}${search}`;
}

/** The secrets a URL carries, as written and decoded: the password (user part and parameter). */
function urlSecrets(url: string): string[] {
  const found: string[] = [];
  try {
    const parsed = new URL(url.trim());
    if (parsed.password !== "") found.push(parsed.password);
    for (const [key, value] of parsed.searchParams)
      if (key.toLowerCase() === "password" && value !== "") found.push(value);
  } catch {
    // Not a URL: the whole text is the secret below.
  }
  const decoded = found.flatMap((s) => {
    try {
      return [decodeURIComponent(s)];
    } catch {
      return [];
    }
  });
  return [url, url.trim(), ...found, ...decoded].filter((s) => s !== "");
}

/**
 * `text` (an error message from the driver, a stack) with the URL shown redacted and its password
 * masked wherever it appears, however it was written.
 */
export function redactSecrets(text: string, url: string): string {
  let out = text;
  const secrets = urlSecrets(url).sort((a, b) => b.length - a.length);
  for (const secret of secrets)
    out = out.split(secret).join(secret === url || secret === url.trim() ? redactDbUrl(url) : MASK);
  return out;
}

/**
 * The database URL a command was given: `--db`, else ROLLOUT_STUDIO_DB; null when neither is set
 * (an empty value counts as unset).
 */
export function dbUrlChosen(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (flag !== undefined && flag.trim() !== "") return flag.trim();
  const fromEnv = env[DB_ENV];
  return fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv.trim() : null;
}
