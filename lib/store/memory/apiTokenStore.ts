import type { ApiToken, ApiTokenStore, ProviderSignIn } from "../../auth/apiTokens";

/**
 * API tokens in this process (the memory store): the domain keeps at most MAX_TOKENS made ones, and
 * RackHD's login makes one a sign-in (each for a day). Past `capacity`, the expired go first, then
 * the oldest, as DynamoDB's time-to-live would take them.
 */
export class MemoryApiTokenStore implements ApiTokenStore {
  private readonly tokens = new Map<string, ApiToken>();
  private readonly signIns = new Map<string, ProviderSignIn>();

  constructor(private readonly capacity = 10_000) {}

  async create(token: ApiToken): Promise<void> {
    if (this.tokens.size >= this.capacity) {
      const now = Date.now();
      for (const [id, kept] of this.tokens) if (Date.parse(kept.expiresAt) <= now) this.tokens.delete(id);
      // Insertion order: the first is the oldest.
      if (this.tokens.size >= this.capacity) this.tokens.delete(this.tokens.keys().next().value as string);
    }
    this.tokens.set(token.id, structuredClone(token));
  }

  async get(id: string): Promise<ApiToken | undefined> {
    const token = this.tokens.get(id);
    return token && structuredClone(token);
  }

  async list(): Promise<ApiToken[]> {
    return [...this.tokens.values()].map((token) => structuredClone(token));
  }

  async update(id: string, lastUsedAt: string): Promise<void> {
    const token = this.tokens.get(id);
    if (token) token.lastUsedAt = lastUsedAt;
  }

  async delete(id: string): Promise<boolean> {
    return this.tokens.delete(id);
  }

  async recordSignIn(signIn: ProviderSignIn): Promise<void> {
    // The newest goes last; past `capacity` the longest unseen goes first.
    this.signIns.delete(signIn.name);
    if (this.signIns.size >= this.capacity) this.signIns.delete(this.signIns.keys().next().value as string);
    this.signIns.set(signIn.name, structuredClone(signIn));
  }

  async lastSignIn(name: string): Promise<ProviderSignIn | undefined> {
    const signIn = this.signIns.get(name);
    return signIn && structuredClone(signIn);
  }
}
