import { CATCH_ALL, ROUTES } from "../http/routes";
import type { CatchAll, Endpoint } from "../http/routes/endpoint";
import { SCHEDULED, type ScheduledFunction } from "../http/routes/scheduled";
import { allFunctions, describe, type Needs, roleOf, type Store } from "../http/routes/serverlessFunctions";
import { dataStatements } from "../store/dynamodb/iamPolicy";

/*
 * Deploy-time composition (serverless.yml `resources:`, through deploy/functions.js): the route
 * registry's needs, function by function (lib/http/routes/serverlessFunctions.ts), made into IAM
 * roles with the table's keys (lib/store/dynamodb/iamPolicy.ts).
 */

const LAMBDA_TRUST = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
};
const TARGETS = {
  table: { "Fn::GetAtt": ["DataTable", "Arn"] },
  index: { "Fn::Sub": "${DataTable.Arn}/index/GSI1" },
  bucketObjects: { "Fn::Sub": "${FilesBucket.Arn}/files/*" },
};

/** Reads the user list (AUTH_USERS_PARAMETER) from SSM, for the roles of the functions that ask for credentials. */
function userListPolicy(roles: string[], parameter: string) {
  return {
    Type: "AWS::IAM::ManagedPolicy",
    Condition: "ReadsAuthUsersParameter",
    Properties: {
      Description: "Read the user list (AUTH_USERS_PARAMETER) from SSM Parameter Store",
      Roles: roles.map((name) => ({ Ref: name })),
      PolicyDocument: {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Action: "ssm:GetParameter",
            Resource: { "Fn::Sub": `arn:\${AWS::Partition}:ssm:\${AWS::Region}:\${AWS::AccountId}:parameter${parameter}` },
          },
          // A SecureString under the account's default key (aws/ssm) is decrypted through SSM.
          {
            Effect: "Allow",
            Action: "kms:Decrypt",
            Resource: "*",
            Condition: { StringEquals: { "kms:ViaService": { "Fn::Sub": "ssm.${AWS::Region}.amazonaws.com" } } },
          },
        ],
      },
    },
  };
}

/** A role allowing what `needs` says and no more (its logs aside). */
function role(needs: Needs) {
  const statements = dataStatements(needs.access, TARGETS);
  return {
    Type: "AWS::IAM::Role",
    Properties: {
      Description: `Functions that need: ${describe(needs)}`.slice(0, 1000),
      AssumeRolePolicyDocument: LAMBDA_TRUST,
      ManagedPolicyArns: ["arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"],
      ...(statements.length > 0 && {
        Policies: [{ PolicyName: "Data", PolicyDocument: { Version: "2012-10-17", Statement: statements } }],
      }),
    },
  };
}

/**
 * The functions' roles as CloudFormation resources: with STORE=dynamodb one per distinct set of
 * needs, each allowing exactly what its functions' entries declare (STORE=memory has its one
 * logs-only role in deploy/resources.memory.yml); and the user list readable by the roles of the
 * functions that ask for credentials only.
 */
export function serverlessRoles(
  store: Store,
  authUsersParameter: string,
  routes: readonly Endpoint[] = ROUTES,
  catchAll: CatchAll = CATCH_ALL,
  scheduled: readonly ScheduledFunction[] = SCHEDULED,
): { Resources: Record<string, unknown> } {
  const roles = new Map<string, Needs>();
  for (const fn of allFunctions(routes, catchAll, scheduled)) roles.set(roleOf(store, fn.needs), fn.needs);
  const resources: Record<string, unknown> = {};
  if (store === "dynamodb") for (const [name, needs] of roles) resources[name] = role(needs);
  const readers = [...roles].filter(([, needs]) => store === "memory" || needs.basicAuth).map(([name]) => name);
  resources.AuthUsersParameterAccess = userListPolicy(readers, authUsersParameter);
  return { Resources: resources };
}
