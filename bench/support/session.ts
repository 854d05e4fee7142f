// Signing in through the API as the admin does: a first request hands out the CSRF cookie, then POST /auth/web.

export interface BenchSession {
  /** The Cookie header to send back: the session and the CSRF cookie. */
  cookie: string;
  /** The X-CSRF-Token header of the session's CSRF cookie. */
  csrf: string;
}

/** Signs `email` in at `base` (http://host:port); `headers` go with both requests (e.g. X-Forwarded-For). Throws unless 200. */
export async function signIn(base: string, email: string, password: string, headers: Record<string, string> = {}): Promise<BenchSession> {
  const first = await fetch(`${base}/api/1/auth/me`, { headers });
  const csrf = /ls\.csrf-token=([^;]+)/.exec(first.headers.getSetCookie().join(';'))![1];
  const login = await fetch(`${base}/api/1/auth/web`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json', 'X-CSRF-Token': decodeURIComponent(csrf), Cookie: `ls.csrf-token=${csrf}` },
    body: JSON.stringify({ u_email: email, u_password: password }),
  });
  if (login.status !== 200) throw new Error(`sign-in of ${email}: ${login.status} ${await login.text()}`);
  const set = login.headers.getSetCookie().join(';');
  const token = /ls\.csrf-token=([^;]+)/.exec(set)![1];
  return { cookie: `ls.sid=${/ls\.sid=([^;]+)/.exec(set)![1]}; ls.csrf-token=${token}`, csrf: decodeURIComponent(token) };
}
