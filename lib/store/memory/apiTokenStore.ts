import type { ApiToken, ApiTokenStore } from "../../auth/apiTokens";

/** API tokens in this process (the memory store): as many as the domain keeps (MAX_TOKENS). */
export class MemoryApiTokenStore implements ApiTokenStore {
  private readonly tokens = new Map<string, ApiToken>();

  async create(token: ApiToken): Promise<void> {
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
}
