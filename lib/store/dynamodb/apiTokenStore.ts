import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type ApiToken, type ApiTokenStore, PROVIDER_SIGN_IN_DAYS, type ProviderSignIn } from "../../auth/apiTokens";
import { queryAll } from "./conditions";

/**
 * API tokens in DynamoDB (issue 55): `APITOKEN / <id>`, one partition (a deployment keeps at most
 * MAX_TOKENS, and the list is one query of it); a sign-in reads its token by id. `expiresAt` is
 * kept as the table's TTL attribute (epoch seconds), so an expired token goes by itself.
 */
const PARTITION = "APITOKEN";
/** A provider's caller's last sign-in: `SIGNIN / <name>`, gone by itself PROVIDER_SIGN_IN_DAYS after it. */
const SIGN_INS = "SIGNIN";

type TokenItem = Omit<ApiToken, "expiresAt"> & { pk: string; sk: string; expiresAt: number };

const tokenOf = ({ pk: _pk, sk: _sk, expiresAt, ...token }: TokenItem): ApiToken => ({
  ...token,
  expiresAt: new Date(expiresAt * 1000).toISOString(),
});

export class DynamoApiTokenStore implements ApiTokenStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(token: ApiToken): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: { pk: PARTITION, sk: token.id, ...token, expiresAt: Math.ceil(Date.parse(token.expiresAt) / 1000) },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  }

  async get(id: string): Promise<ApiToken | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: PARTITION, sk: id }, ConsistentRead: true }),
    );
    return Item && tokenOf(Item as TokenItem);
  }

  async list(): Promise<ApiToken[]> {
    const items = await queryAll<TokenItem>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": PARTITION },
    });
    return items.map(tokenOf);
  }

  async update(id: string, lastUsedAt: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: PARTITION, sk: id },
          UpdateExpression: "SET lastUsedAt = :at",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":at": lastUsedAt },
        }),
      );
    } catch (error) {
      // Revoked between its read and this write: nothing to record.
      if ((error as Error).name !== "ConditionalCheckFailedException") throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    const { Attributes } = await this.client.send(
      new DeleteCommand({ TableName: this.table, Key: { pk: PARTITION, sk: id }, ReturnValues: "ALL_OLD" }),
    );
    return Attributes !== undefined;
  }

  async recordSignIn(signIn: ProviderSignIn): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: SIGN_INS,
          sk: signIn.name,
          name: signIn.name,
          groups: [...signIn.groups],
          at: signIn.at,
          expiresAt: Math.ceil(Date.parse(signIn.at) / 1000) + PROVIDER_SIGN_IN_DAYS * 86_400,
        },
      }),
    );
  }

  async lastSignIn(name: string): Promise<ProviderSignIn | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: SIGN_INS, sk: name }, ConsistentRead: true }),
    );
    return Item && { name: Item.name as string, groups: Item.groups as string[], at: Item.at as string };
  }
}
