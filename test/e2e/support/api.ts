/** A minimal API client for test setup (like a browser: cookies, and the CSRF cookie sent back as a header). */
export class ApiClient {
  private cookies = new Map<string, string>();
  constructor(private baseUrl: string) {}

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    return this.send<T>(method, path, body === undefined ? undefined : { type: 'application/json', data: JSON.stringify(body) });
  }

  /** A body as it is (e.g. a card photo's bytes to PUT /lead-files/{id}), with its Content-Type. */
  async sendBytes<T = unknown>(method: string, path: string, data: Uint8Array, type: string): Promise<{ status: number; body: T }> {
    return this.send<T>(method, path, { type, data });
  }

  private async send<T>(method: string, path: string, body?: { type: string; data: string | Uint8Array }): Promise<{ status: number; body: T }> {
    if (method !== 'GET' && !this.cookies.has('ls.csrf-token')) await this.call('GET', '/auth/me');
    const headers: Record<string, string> = { Accept: 'application/json', Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const csrf = this.cookies.get('ls.csrf-token');
    if (method !== 'GET' && csrf) headers['X-CSRF-Token'] = decodeURIComponent(csrf);
    if (body) headers['Content-Type'] = body.type;
    const data: BodyInit | undefined = body === undefined ? undefined : typeof body.data === 'string' ? body.data : new Blob([new Uint8Array(body.data)]);
    const res = await fetch(`${this.baseUrl}/api/1${path}`, { method, headers, body: data });
    this.store(res);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async login(email: string, password: string): Promise<void> {
    const res = await this.call('POST', '/auth/web', { u_email: email, u_password: password });
    if (res.status !== 200) throw new Error(`login failed for ${email}: ${JSON.stringify(res.body)}`);
  }

  async create<T = { id: string }>(path: string, body: unknown): Promise<T> {
    const res = await this.call<T>('POST', path, body);
    if (res.status !== 201) throw new Error(`POST ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /**
   * An account asset's upload, as the console does it: sign (the file and, when given, its thumbnail), PUT the bytes to
   * each signed URL, and answer the file fields for `POST /assets` or `PUT /assets/{id}/file`.
   */
  async uploadAssetFile(accountId: string, bytes: Uint8Array, filename: string, thumb?: Uint8Array): Promise<Record<string, string>> {
    const ids = thumb ? [crypto.randomUUID(), crypto.randomUUID()] : [crypto.randomUUID()];
    const signed = await this.call<{ id: string; url: string; path: string }[]>('POST', `/accounts/${accountId}/assets/sign`, { ids });
    if (signed.status !== 200) throw new Error(`sign -> ${signed.status} ${JSON.stringify(signed.body)}`);
    const put = async (url: string, body: Uint8Array) => {
      const res = await fetch(new URL(url, this.baseUrl), { method: 'PUT', body: new Blob([new Uint8Array(body)]) });
      if (res.status !== 200) throw new Error(`PUT ${url} -> ${res.status} ${await res.text()}`);
    };
    await put(signed.body[0].url, bytes);
    if (thumb) await put(signed.body[1].url, thumb);
    return { as_fileid: signed.body[0].id, fs_filename: filename, fs_type: '', fs_path: signed.body[0].path, ...(thumb ? { as_thumb_fileid: signed.body[1].id } : {}) };
  }

  /** A new asset through the whole upload path (201 expected). */
  async createAsset<T = { id: string; as_id: string }>(
    accountId: string,
    fields: { as_title: string; as_name: string },
    bytes: Uint8Array,
    filename: string,
    thumb?: Uint8Array,
  ): Promise<T> {
    return this.create<T>(`/accounts/${accountId}/assets`, { ...fields, ...(await this.uploadAssetFile(accountId, bytes, filename, thumb)) });
  }
}
